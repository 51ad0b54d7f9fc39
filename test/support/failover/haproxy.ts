import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../free-port.js';
import { haproxyBinary } from './binaries.js';

/** Debian's haproxy in master-worker mode, fronting one PostgreSQL server as Patroni deployments do. */
export interface Haproxy {
  readonly port: number;
  /** Rewrites the configuration to point at `serverPort` and reloads (SIGUSR2 to the master): no client reconfigured. */
  switchTo(serverPort: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The settings of the usual Patroni + haproxy recipe: TCP mode, long client/server time-outs (a
 * pool's idle connection must not be cut), a health check, and `on-marked-down shutdown-sessions`
 * so that clients of a server found dead are disconnected at once instead of waiting on it.
 */
function configuration(port: number, serverPort: number): string {
  return `global
  maxconn 500
defaults
  mode tcp
  timeout connect 2s
  timeout client 65m
  timeout server 65m
frontend postgres
  bind 127.0.0.1:${port}
  default_backend primary
backend primary
  server pg 127.0.0.1:${serverPort} check inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
`;
}

export async function startHaproxy(serverPort: number): Promise<Haproxy> {
  const dir = mkdtempSync('/tmp/pl-haproxy-');
  const file = join(dir, 'haproxy.cfg');
  const port = await freePort();
  writeFileSync(file, configuration(port, serverPort));
  // -W: master-worker, so a reload keeps the listening port and the process (what systemd's reload does).
  const child: ChildProcess = spawn(haproxyBinary()!, ['-W', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  try {
    await waitListening(port, () => `${log} (exit ${child.exitCode})`);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    switchTo: async (next) => {
      writeFileSync(file, configuration(port, next));
      child.kill('SIGUSR2');
      // The new worker binds beside the old one (SO_REUSEPORT); it is in place once it accepts.
      await waitListening(port, () => log);
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitListening(port: number, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); done(true); });
      socket.once('error', () => done(false));
    });
    if (up) return;
    if (Date.now() > deadline) throw new Error(`haproxy not listening on ${port}: ${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
