"""Placement servers for the harness: a fresh PostgreSQL database and a fresh server each.

The server is any command honouring the conformance kit's server contract
(../shared/conformance/README.md): PORT, HOST, DATABASE_URL of an empty database,
PLACEMENT_AUTH_STRATEGY=noauth2 and the PLACEMENT_POLICY_* variables; ready when GET /
answers 200; gone on SIGTERM to its process group.

A pool keeps a few servers started ahead, so a test waits for start-up only when tests
ask faster than servers start. A server is used by one test and then stopped, and its
database dropped, in the background.
"""

import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import psycopg2

# Server commands run from the harness's folder, so servers/upstream-placement.sh works.
HERE = os.path.dirname(os.path.abspath(__file__))

# Nova's fixture talks to placement with the noauth2 'admin' token, which the shipped
# fixture's policy (oslo.policy defaults of Debian 12: legacy rules, scope not enforced)
# lets through; ask the server for the same policy.
SERVER_ENV = {
    'HOST': '127.0.0.1',
    'PLACEMENT_AUTH_STRATEGY': 'noauth2',
    'PLACEMENT_POLICY_ENFORCE_NEW_DEFAULTS': 'false',
    'PLACEMENT_POLICY_ENFORCE_SCOPE': 'false',
    'PLACEMENT_POLICY_OPEN': 'false',
}

_ports = itertools.count(0)
_port_lock = threading.Lock()


def _free_port(base):
    with _port_lock:
        for _ in range(1000):
            port = base + next(_ports) % 1000
            with socket.socket() as s:
                try:
                    s.bind(('127.0.0.1', port))
                except OSError:
                    continue
                return port
    raise RuntimeError('no free port in %d-%d' % (base, base + 999))


class Databases:
    def __init__(self, admin_url):
        self.admin_url = admin_url
        self._names = itertools.count(1)
        self._prefix = 'nova_acc_%d_' % os.getpid()

    def _admin(self, sql):
        conn = psycopg2.connect(self.admin_url)
        try:
            conn.autocommit = True
            with conn.cursor() as cur:
                cur.execute(sql)
        finally:
            conn.close()

    def create(self):
        name = '%s%d' % (self._prefix, next(self._names))
        self._admin('CREATE DATABASE "%s"' % name)
        parts = urllib.parse.urlsplit(self.admin_url)
        return name, urllib.parse.urlunsplit(parts._replace(path='/' + name))

    def drop(self, name):
        self._admin('DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % name)


class Server:
    def __init__(self, command, databases, log_dir, port_base, ready_timeout):
        self.db_name, self.db_url = databases.create()
        self.databases = databases
        self.port = _free_port(port_base)
        self.endpoint = 'http://127.0.0.1:%d' % self.port
        self.scratch = tempfile.mkdtemp(prefix='nova-acc-server-')
        self.log_path = os.path.join(log_dir, '%s.server.log' % self.db_name)
        env = {k: v for k, v in os.environ.items() if not k.startswith('PLACEMENT_')}
        env.update(SERVER_ENV, PORT=str(self.port), DATABASE_URL=self.db_url,
                   SCRATCH_DIR=self.scratch)
        with open(self.log_path, 'wb') as log:
            self.process = subprocess.Popen(
                ['bash', '-c', command], env=env, cwd=HERE, stdin=subprocess.DEVNULL,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_ready(ready_timeout)

    def _wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(self.endpoint + '/', timeout=5) as reply:
                    if reply.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError('server not ready in %ss (log %s): %s'
                           % (timeout, self.log_path, self.log_tail()))

    def log_tail(self, lines=15):
        try:
            with open(self.log_path, errors='replace') as f:
                return ''.join(f.readlines()[-lines:])
        except OSError:
            return ''

    def stop(self, grace=10):
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(grace)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()
        shutil.rmtree(self.scratch, ignore_errors=True)
        try:
            self.databases.drop(self.db_name)
        except psycopg2.Error:
            pass


class Pool:
    """Servers started ahead of need, ``spares`` at a time."""

    def __init__(self, command, admin_url, log_dir, spares=2, port_base=19000,
                 ready_timeout=90):
        databases = Databases(admin_url)
        self._start = lambda: Server(command, databases, log_dir, port_base, ready_timeout)
        self._ready = []
        self._starting = 0
        self._spares = spares
        self._cond = threading.Condition(threading.RLock())
        self._closed = False
        self._errors = []
        self._handed = set()
        with self._cond:
            self._refill()

    def _refill(self):
        """Start servers until ``spares`` are ready or starting (the lock is held)."""
        while not self._closed and len(self._ready) + self._starting < self._spares:
            self._starting += 1
            threading.Thread(target=self._start_one, daemon=True).start()

    def _start_one(self):
        server, error = None, None
        try:
            server = self._start()
        except Exception as e:  # handed to the test that waits for a server
            error = e
        with self._cond:
            self._starting -= 1
            if server and self._closed:
                threading.Thread(target=server.stop, daemon=True).start()
            elif server:
                self._ready.append(server)
            else:
                self._errors.append(error)
            self._cond.notify_all()

    def acquire(self, timeout=180):
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._ready:
                if self._errors:
                    error = self._errors.pop(0)
                    self._refill()
                    raise error
                self._refill()
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError('no placement server within %ss' % timeout)
                self._cond.wait(min(left, 1))
            server = self._ready.pop(0)
            self._handed.add(server)
            self._refill()
        return server

    def release(self, server):
        with self._cond:
            self._handed.discard(server)
        threading.Thread(target=server.stop, daemon=True).start()

    def close(self):
        """Stop every server still running: the ready ones and those a test still holds."""
        with self._cond:
            self._closed = True
            left = self._ready + list(self._handed)
            self._ready, self._handed = [], set()
        for server in left:
            server.stop()
