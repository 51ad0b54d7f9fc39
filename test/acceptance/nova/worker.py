"""A worker process of the harness: runs Nova functional tests one at a time, as asked.

    worker.py --list NAME...        print the test ids under dotted names (module, class, test)
    worker.py --serve FD [--http]   take tests from the runner over the socket FD

Over FD (one JSON object a line) the runner sends {"run": test_id} or {"exit": true}; the
worker answers each test with {"result": ...}, and while a test runs it may ask
{"server": true} and get {"endpoint": url} or {"error": text} back (with --http, whenever
a placement fixture is set up; see placement_over_http.py). Without --http the tests run
exactly as shipped, with upstream's placement in-process.

Nova looks for ``etc/nova/api-paste.ini`` under its ``pybasedir``, the directory that holds
the ``nova`` package (a source checkout). Debian installs that file as /etc/nova/api-paste.ini
(nova-common), so the worker imports nova through a private directory holding a link to the
package and ``etc/nova/api-paste.ini``, instead of writing into the system's site-packages.
"""

import argparse
import atexit
import importlib.util
import json
import os
import shutil
import socket
import sys
import tempfile
import time
import traceback
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LISTED = 'nova-test: '
API_PASTE = os.environ.get('NOVA_API_PASTE_INI', '/etc/nova/api-paste.ini')


def nova_beside_its_etc():
    spec = importlib.util.find_spec('nova')
    if spec is None or not spec.submodule_search_locations:
        sys.exit('worker: python3-nova is not installed (test/acceptance/nova/install.sh)')
    if not os.path.exists(API_PASTE):
        sys.exit('worker: %s missing (the nova-common package)' % API_PASTE)
    base = tempfile.mkdtemp(prefix='nova-acc-base-')
    os.symlink(list(spec.submodule_search_locations)[0], os.path.join(base, 'nova'))
    os.makedirs(os.path.join(base, 'etc', 'nova'))
    os.symlink(API_PASTE, os.path.join(base, 'etc', 'nova', 'api-paste.ini'))
    sys.path.insert(0, base)
    atexit.register(shutil.rmtree, base, ignore_errors=True)
    return base


def test_ids(suite):
    for test in suite:
        if isinstance(test, unittest.TestSuite):
            yield from test_ids(test)
        else:
            yield test.id()


class Outcome(unittest.TestResult):
    """The one test's status and, when it did not pass, why."""

    def __init__(self):
        super().__init__()
        self.status, self.message = 'passed', ''

    def _failed(self, test, err):
        self.status = 'failed'
        self.message += self._exc_info_to_string(err, test) if isinstance(err, tuple) else str(err)

    def addError(self, test, err):
        self._failed(test, err)

    def addFailure(self, test, err):
        self._failed(test, err)

    def addSkip(self, test, reason):
        if self.status == 'passed':
            self.status, self.message = 'skipped', str(reason)

    def addExpectedFailure(self, test, err):
        self.message = 'expected failure'  # a success, as stestr counts it

    def addUnexpectedSuccess(self, test):
        self._failed(test, 'unexpected success')


def load_test(test_id):
    """The test case named by its id. unittest's loader calls an attribute it does not take
    for a plain function, and some are not (methods under unittest.expectedFailure in a
    testtools class), so a class's test is made by the class itself, as its suite would."""
    parts = test_id.split('.')
    for cut in range(len(parts) - 2, 0, -1):
        try:
            module = importlib.import_module('.'.join(parts[:cut]))
        except ImportError:
            continue
        owner = module
        for name in parts[cut:-1]:
            owner = getattr(owner, name, None)
        if isinstance(owner, type) and issubclass(owner, unittest.TestCase) \
                and hasattr(owner, parts[-1]):
            return owner(parts[-1])
        break
    return unittest.defaultTestLoader.loadTestsFromName(test_id)


def run_one(test_id):
    started = time.monotonic()
    outcome = Outcome()
    try:
        load_test(test_id).run(outcome)
        if not outcome.testsRun and outcome.status == 'passed':
            outcome.status, outcome.message = 'failed', 'no such test'
    except Exception:
        outcome.status, outcome.message = 'failed', traceback.format_exc()
    return {'id': test_id, 'status': outcome.status, 'message': outcome.message,
            'duration_s': round(time.monotonic() - started, 2)}


class Channel:
    def __init__(self, fd):
        # Made before nova is imported, so eventlet's monkey-patching leaves it a plain
        # blocking socket: a test that asks for a server waits for the answer.
        self._sock = socket.socket(fileno=fd)
        self._in = self._sock.makefile('r', encoding='utf-8')

    def send(self, message):
        self._sock.sendall((json.dumps(message) + '\n').encode())

    def receive(self):
        line = self._in.readline()
        if not line:
            sys.exit(0)
        return json.loads(line)

    def ask_server(self):
        self.send({'server': True})
        reply = self.receive()
        if 'error' in reply:
            raise RuntimeError('placement server: %s' % reply['error'])
        return reply['endpoint']


def serve(channel, over_http):
    # Nova's functional package monkey-patches eventlet on import; let it come first, as it
    # does when the tests are run the usual way.
    import nova.tests.functional  # noqa: F401
    endpoints = None
    if over_http:
        sys.path.insert(0, HERE)
        import placement_over_http
        endpoints = placement_over_http.install(channel.ask_server)
    channel.send({'ready': True})
    while True:
        message = channel.receive()
        if message.get('exit'):
            return
        if endpoints:
            endpoints.new_test()
        channel.send({'result': run_one(message['run'])})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--list', nargs='*')
    parser.add_argument('--serve', type=int)
    parser.add_argument('--http', action='store_true')
    args = parser.parse_args()
    channel = Channel(args.serve) if args.serve is not None else None
    nova_beside_its_etc()
    if args.list is not None:
        for name in args.list:
            try:
                suite = unittest.defaultTestLoader.loadTestsFromName(name)
            except Exception as e:
                print('worker: cannot load %s: %s' % (name, e), file=sys.stderr)
                sys.exit(2)
            for test_id in test_ids(suite):
                # Marked: importing some modules logs to stdout (oslo's periodic tasks).
                print(LISTED + test_id)
        return
    serve(channel, args.http)


if __name__ == '__main__':
    main()
