"""Run a named selection of Nova's functional tests against a placement server over HTTP.

See docs/acceptance-nova.md. In short: the tests run as Debian's python3-nova ships them, in
``--jobs`` long-lived worker processes (worker.py) that take one test at a time; with
``--server-cmd`` each placement fixture a test sets up is pointed at a fresh server on a
fresh PostgreSQL database (servers.py, placement_over_http.py); with ``--in-process`` the
tests use upstream's placement in-process, as shipped, which is the baseline.
"""

import argparse
import fnmatch
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import servers

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = os.environ.get('NOVA_ACCEPTANCE_PYTHON', '/usr/bin/python3')
MESSAGE_CHARS = 6000


def read_list(path):
    """Lines of a selection or baseline file, without comments (# to the end of a line);
    a line ``@other.txt`` stands for the lines of that file (beside this one), and a line
    ``-GLOB`` leaves out the test ids it matches."""
    entries = []
    with open(path) as f:
        for line in f:
            entry = line.split('#', 1)[0].strip()
            if entry.startswith('@'):
                entries += read_list(os.path.join(os.path.dirname(path), entry[1:]))
            elif entry:
                entries.append(entry)
    return entries


def list_tests(names, log):
    listing = subprocess.run([PYTHON, os.path.join(HERE, 'worker.py'), '--list', *names],
                             capture_output=True, text=True, env=child_env())
    if listing.returncode != 0:
        log.write(listing.stderr)
        sys.exit('nova: cannot list the selection:\n' + listing.stderr[-3000:])
    marker = 'nova-test: '  # worker.LISTED: other lines are what importing Nova printed
    return [line[len(marker):] for line in listing.stdout.splitlines() if line.startswith(marker)]


def child_env():
    env = dict(os.environ)
    # As Nova's tox.ini runs them: output and logs captured into the test's details.
    env.setdefault('OS_STDOUT_CAPTURE', '1')
    env.setdefault('OS_STDERR_CAPTURE', '1')
    env.setdefault('OS_LOG_CAPTURE', '1')
    env.setdefault('OS_TEST_TIMEOUT', '160')
    env.setdefault('PYTHONDONTWRITEBYTECODE', '1')
    return env


class Child:
    """One worker process and the socket the runner talks to it over."""

    def __init__(self, over_http, log_path):
        self._sock, theirs = socket.socketpair()
        self._buffer = b''
        with open(log_path, 'ab') as log:
            command = [PYTHON, os.path.join(HERE, 'worker.py'), '--serve', str(theirs.fileno())]
            if over_http:
                command.append('--http')
            self.process = subprocess.Popen(command, pass_fds=(theirs.fileno(),),
                                            stdin=subprocess.DEVNULL, stdout=log,
                                            stderr=subprocess.STDOUT, env=child_env())
        theirs.close()

    def send(self, message):
        self._sock.sendall((json.dumps(message) + '\n').encode())

    def receive(self, timeout):
        """The next message, or None when the worker died or said nothing in time."""
        deadline = time.monotonic() + timeout
        while b'\n' not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._sock.settimeout(left)
            try:
                chunk = self._sock.recv(65536)
            except socket.timeout:
                return None
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b'\n', 1)
        return json.loads(line)

    def stop(self):
        try:
            self.send({'exit': True})
            self.process.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        self._sock.close()

    def kill(self):
        self.process.kill()
        self.process.wait()
        self._sock.close()


class Run:
    def __init__(self, args, tests, log_dir):
        self.args, self.tests, self.log_dir = args, tests, log_dir
        self.todo = queue.Queue()
        for test in tests:
            self.todo.put(test)
        self.results = {}
        self.lock = threading.Lock()
        self.pool = None
        if args.server_cmd:
            self.pool = servers.Pool(args.server_cmd, args.db_admin_url, log_dir,
                                     spares=args.spares or args.jobs,
                                     ready_timeout=args.ready_timeout)
        self.deadline = time.monotonic() + args.max_time if args.max_time else None
        self.children = set()
        self.first_tries = {}
        self.stopping = False

    def record(self, result):
        with self.lock:
            self.results[result['id']] = result
            done = len(self.results)
        full = result.pop('full_message', '')
        if result['status'] == 'failed':
            path = os.path.join(self.log_dir, 'failed', result['id'] + '.txt')
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as f:
                f.write(full)
        print('[%4d/%d] %-7s %6.1fs  %s' % (done, len(self.tests), result['status'],
                                            result['duration_s'], result['id']), flush=True)
        if result['status'] == 'failed' and self.args.verbose:
            lines = full.strip().splitlines()
            tail = [line for line in lines if line.strip()][-12:]
            print('\n'.join('          ' + line for line in tail), flush=True)

    def work(self, slot):
        child, count = None, 0
        log_path = os.path.join(self.log_dir, 'worker-%d.log' % slot)
        while not self.stopping:
            if self.deadline and time.monotonic() > self.deadline:
                break
            try:
                test = self.todo.get_nowait()
            except queue.Empty:
                break
            if child is None:
                child = Child(bool(self.pool), log_path)
                self.children.add(child)
                if not (child.receive(self.args.start_timeout) or {}).get('ready'):
                    child.kill()
                    child = None
                    self.record(self._not_run(test) if self.stopping else self._failure(
                        test, 0, '[worker-error] the worker did not start; see %s' % log_path))
                    continue
            result, child = self._run_one(child, test, log_path)
            self.record(result)
            count += 1
            if child and self.args.recycle and count % self.args.recycle == 0:
                child.stop()
                child = None
        if child:
            child.stop()

    def _run_one(self, child, test, log_path):
        started = time.monotonic()
        handed = []
        child.send({'run': test})
        try:
            while True:
                left = started + self.args.test_timeout - time.monotonic()
                message = child.receive(max(left, 0))
                if message is None and self.stopping:
                    child.kill()
                    return self._not_run(test), None
                if message is None:
                    reason = ('[timeout] no result in %ss' % self.args.test_timeout
                              if child.process.poll() is None else
                              '[worker-died] exit %s; see %s' % (child.process.poll(), log_path))
                    child.kill()
                    return self._failure(test, started, reason), None
                if 'server' in message:
                    try:
                        server = self.pool.acquire()
                        handed.append(server)
                        child.send({'endpoint': server.endpoint})
                    except Exception as e:
                        child.send({'error': str(e)})
                elif 'result' in message:
                    result = message['result']
                    result['full_message'] = result['message']
                    result['message'] = result['message'][-MESSAGE_CHARS:]
                    result['server_logs'] = [s.log_path for s in handed]
                    return result, child
        finally:
            for server in handed:
                self.pool.release(server)

    @staticmethod
    def _failure(test, started, reason):
        return {'id': test, 'status': 'failed', 'message': reason, 'full_message': reason,
                'duration_s': round(time.monotonic() - started, 2) if started else 0,
                'server_logs': []}

    def interrupt(self):
        self.stopping = True
        for child in list(self.children):
            if child.process.poll() is None:
                child.process.kill()

    def _drain(self):
        threads = [threading.Thread(target=self.work, args=(slot,), daemon=True)
                   for slot in range(1, self.args.jobs + 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():
                thread.join(1)

    def execute(self):
        try:
            self._drain()
            for _ in range(self.args.retries):
                failed = [t for t in self.tests if t in self.results
                          and self.results[t]['status'] == 'failed']
                if not failed or (self.deadline and time.monotonic() > self.deadline):
                    break
                # A second go on fresh servers and workers tells a test that failed from
                # load or timing (Nova's own waits are short) from one that fails each time.
                print('nova: running %d failed test(s) again' % len(failed), flush=True)
                for test in failed:
                    first = self.results.pop(test)
                    self.first_tries[test] = first
                    self.todo.put(test)
                self._drain()
                for test in failed:
                    if self.results.get(test, {}).get('status') == 'passed':
                        self.results[test]['passed_on_retry'] = self.first_tries[test]['message']
        finally:
            self.stopping = True
            for child in list(self.children):
                if child.process.poll() is None:
                    child.process.kill()
            if self.pool:
                self.pool.close()
        for test in self.tests:
            if test not in self.results:
                self.results[test] = self._not_run(test)
                self.results[test].pop('full_message')

    def _not_run(self, test):
        reason = '[not-run] the run was interrupted' if self.stopping else '[not-run] --max-time reached'
        result = self._failure(test, 0, reason)
        if self.stopping:
            result['status'] = 'not-run'
        return result


def drop_passed_server_logs(results):
    for path in (p for r in results.values() if r['status'] != 'failed'
                 for p in r.get('server_logs', [])):
        if os.path.exists(path):
            os.unlink(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument('--server-cmd', help='command that starts a placement server (the contract)')
    target.add_argument('--in-process', action='store_true',
                        help="upstream's placement in-process, as the tests ship")
    parser.add_argument('--select', action='append', default=[],
                        help='file of dotted names (modules, classes, tests), one a line')
    parser.add_argument('names', nargs='*', help='dotted names, as in --select files')
    parser.add_argument('--only', action='append', default=[], help='glob on test ids')
    parser.add_argument('--exclude', action='append', default=[], help='glob on test ids')
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('--spares', type=int, default=0, help='servers started ahead (default: --jobs)')
    parser.add_argument('--db-admin-url', default=os.environ.get(
        'NOVA_ACCEPTANCE_DB_ADMIN_URL', 'postgres://postgres@127.0.0.1:5432/postgres'))
    parser.add_argument('--test-timeout', type=float, default=400)
    parser.add_argument('--start-timeout', type=float, default=120)
    parser.add_argument('--ready-timeout', type=float, default=90)
    parser.add_argument('--max-time', type=float, default=0, help='stop starting tests after N s')
    parser.add_argument('--retries', type=int, default=0,
                        help='run failed tests again, up to N times (a pass then counts, marked)')
    parser.add_argument('--recycle', type=int, default=150, help='new worker process after N tests')
    parser.add_argument('--report', help='write results as JSON')
    parser.add_argument('--baseline', help='test ids expected to pass, one a line')
    parser.add_argument('--check', action='store_true',
                        help='fail only when a baseline test of the selection did not pass')
    parser.add_argument('--only-baseline', action='store_true',
                        help='run only the tests of the selection that the baseline lists')
    parser.add_argument('--write-baseline', help='write the ids that passed')
    parser.add_argument('--log-dir')
    parser.add_argument('-v', '--verbose', action='store_true')
    args = parser.parse_args()

    names = list(args.names)
    for path in args.select:
        for entry in read_list(path):
            if entry.startswith('-'):
                args.exclude.append(entry[1:])
            else:
                names.append(entry)
    if not names:
        parser.error('nothing selected: give --select FILE or dotted names')
    log_dir = args.log_dir or tempfile.mkdtemp(prefix='nova-acceptance-')
    os.makedirs(log_dir, exist_ok=True)
    print('nova: logs in %s' % log_dir, flush=True)
    with open(os.path.join(log_dir, 'listing.log'), 'w') as log:
        tests = list_tests(names, log)
    if args.only:
        tests = [t for t in tests if any(fnmatch.fnmatchcase(t, g) for g in args.only)]
    tests = [t for t in tests if not any(fnmatch.fnmatchcase(t, g) for g in args.exclude)]
    if args.only_baseline:
        if not args.baseline:
            parser.error('--only-baseline needs --baseline')
        expected = set(read_list(args.baseline))
        tests = [t for t in tests if t in expected]
    target = args.server_cmd or "upstream's placement in-process"
    print('nova: %d tests against %s, %d at a time' % (len(tests), target, args.jobs), flush=True)

    started = time.monotonic()
    run = Run(args, tests, log_dir)
    # Stopped from outside: no new test starts, the running ones are stopped with their
    # workers and servers, and what ran is still counted and reported.
    signal.signal(signal.SIGTERM, lambda *_: run.interrupt())
    run.execute()
    results = run.results
    wall = time.monotonic() - started
    drop_passed_server_logs(results)
    counts = {s: sum(1 for r in results.values() if r['status'] == s)
              for s in ('passed', 'failed', 'skipped', 'not-run')}

    status = 1 if counts['failed'] else 0
    baseline = None
    if args.baseline:
        expected = set(read_list(args.baseline))
        selected = [t for t in tests if t in expected]
        regressions = [t for t in selected if results[t]['status'] != 'passed']
        new_passes = [t for t in tests if t not in expected and results[t]['status'] == 'passed']
        baseline = {'file': args.baseline, 'expected': len(selected),
                    'regressions': regressions, 'new_passes': new_passes}
        if args.check:
            status = 1 if regressions else 0
    if args.write_baseline:
        with open(args.write_baseline, 'w') as f:
            f.write('# Nova functional tests that passed against: %s\n' % target)
            for test in sorted(t for t in tests if results[t]['status'] == 'passed'):
                f.write(test + '\n')
    if args.report:
        with open(args.report, 'w') as f:
            json.dump({'summary': dict(counts, tests=len(tests), wall_s=round(wall, 1)),
                       'target': target, 'log_dir': log_dir, 'baseline': baseline,
                       'tests': [results[t] for t in tests]}, f, indent=1)

    failed = [t for t in tests if results[t]['status'] == 'failed']
    if failed:
        print('\nnova: failed (details in %s/failed/):' % log_dir)
        for test in failed:
            last = [l for l in results[test]['message'].strip().splitlines() if l.strip()]
            print('  %s\n      %s' % (test, last[-1][:200] if last else ''))
    flaky = [t for t in tests if results[t].get('passed_on_retry')]
    if flaky:
        print('\nnova: passed only when run again (first failure in the report):')
        for test in flaky:
            print('  %s' % test)
    if baseline:
        print('\nnova: baseline %s: %d expected in this selection, %d did not pass, %d new passes'
              % (args.baseline, baseline['expected'], len(baseline['regressions']),
                 len(baseline['new_passes'])))
        for test in baseline['regressions']:
            print('  REGRESSION %s' % test)
    print('nova: wall time %.0fs, logs in %s' % (wall, log_dir))
    if counts['not-run']:
        print('nova: interrupted, %d tests not run' % counts['not-run'])
        status = 1
    print('nova: %d passed, %d failed, %d skipped' % (counts['passed'], counts['failed'],
                                                     counts['skipped']), flush=True)
    return status


if __name__ == '__main__':
    sys.exit(main())
