import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { ServerProcess, startServerProcess } from '../support/server-process.js';

jest.setTimeout(120_000);

const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
const workersOf = (primary: number) => spawnSync('pgrep', ['-P', String(primary)], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);

/**
 * Issue 13's memory goal: PLACEMENT_WORKERS' workers run with the serving heap flags
 * (apps/placement-api/src/heap-flags.ts) without the operator naming them, and an operator's own
 * young generation size in NODE_OPTIONS is kept.
 */
describe('API workers and their V8 heap flags', () => {
  let database: TestDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => { database = await createTestDatabase('pl_heap'); });
  afterEach(async () => { await server?.stop(); server = undefined; });
  afterAll(async () => database.drop());

  it('forks every worker with its fixed young generation and --expose-gc', async () => {
    server = await startServerProcess({ DATABASE_URL: database.url, PLACEMENT_AUTH_STRATEGY: 'noauth2', PLACEMENT_WORKERS: '2' });
    const workers = workersOf(server.child.pid!);
    expect(workers).toHaveLength(2);
    for (const pid of workers) expect(commandLine(pid)).toEqual(expect.arrayContaining(['--min-semi-space-size=16', '--max-semi-space-size=16', '--expose-gc']));
  });

  it("keeps the operator's own size from NODE_OPTIONS", async () => {
    server = await startServerProcess({
      DATABASE_URL: database.url, PLACEMENT_AUTH_STRATEGY: 'noauth2', PLACEMENT_WORKERS: '2', NODE_OPTIONS: '--max-semi-space-size=32',
    });
    for (const pid of workersOf(server.child.pid!)) {
      expect(commandLine(pid)).not.toContain('--max-semi-space-size=16');
      expect(commandLine(pid)).not.toContain('--min-semi-space-size=16');
      expect(commandLine(pid)).toContain('--expose-gc');
    }
  });
});
