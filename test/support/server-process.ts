import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The built server (`npm run build`), run as `npm run serve` runs it: for tests of start, stop and restart.
 * TEST_SERVER_ENTRY points at another build (e.g. `tsc --outDir .build/<name>`) without touching dist/.
 * From the sources (jest) the build is under dist/; compiled (a bench in dist/test), beside this tree.
 */
export const SERVER_ENTRY = process.env.TEST_SERVER_ENTRY
  ? resolve(process.env.TEST_SERVER_ENTRY)
  : resolve(__dirname, __filename.endsWith('.ts') ? '../../dist/apps' : '../../apps', 'placement-api/src/main.js');

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  readonly output: () => string;
  /** SIGTERM, then wait for the exit code. */
  stop(): Promise<number | null>;
}

/** `args` follow the entry on the command line (e.g. `--config-file`). */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000, args: readonly string[] = []): Promise<ServerProcess> {
  const port = 20000 + Math.floor(Math.random() * 5000);
  const child = spawn(process.execPath, [SERVER_ENTRY, ...args], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(child, url, timeoutMs, () => log);
  return {
    url,
    child,
    output: () => log,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Waits until the child answers GET / (the conformance kit's readiness rule); kills it on time-out. */
export async function waitUntilServing(child: ChildProcess, url: string, timeoutMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log()}`);
    try {
      if ((await fetch(`${url}/`)).ok) return;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready in ${timeoutMs} ms:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
