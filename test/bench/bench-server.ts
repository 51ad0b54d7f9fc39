import { ChildProcess, spawn } from 'node:child_process';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { SERVER_ENTRY as BUILT_SERVER, waitUntilServing } from '../support/server-process.js';
import { SERVING_HEAP_FLAGS } from '#placement-api/heap-flags.js';

/**
 * The built server, as the tests start it; PLACEMENT_BENCH_SERVER names another build's main.js,
 * to measure two builds with one bench (before and after a change).
 */
const SERVER_ENTRY = process.env.PLACEMENT_BENCH_SERVER ?? BUILT_SERVER;

export interface BenchServer {
  readonly url: string;
  readonly databaseUrl: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The built server as a child process, ready when GET / answers: on a fresh database (dropped at
 * stop), or on `existing` (kept). `entry`: another build's main.js, started beside this one's.
 */
export async function startBenchServer(
  env: Record<string, string> = {}, nodeArgs: string[] = [], timeoutMs = 60_000, existing?: string, entry = SERVER_ENTRY,
): Promise<BenchServer> {
  const database: Pick<TestDatabase, 'url' | 'drop'> = existing ? { url: existing, drop: async () => undefined } : await createTestDatabase('pl_bench');
  const port = 25000 + Math.floor(Math.random() * 5000);
  // The flags npm start, the image and the workers run with: the benches measure what ships.
  const child = spawn(process.execPath, [...SERVING_HEAP_FLAGS, ...nodeArgs, entry], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: database.url, PLACEMENT_AUTH_STRATEGY: 'noauth2', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (d) => (log = (log + d).slice(-4000)));
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(child, url, timeoutMs, () => log);
  return {
    url,
    databaseUrl: database.url,
    child,
    async stop() {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
      await database.drop();
    },
  };
}
