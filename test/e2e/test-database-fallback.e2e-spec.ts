import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * `npm test` on a machine with no PostgreSQL server: where nothing answers at the default
 * address, the tests start the embedded PostgreSQL (test/setup/test-database-server.js). Shown
 * by running one PostgreSQL-backed spec in a jest of its own, pointed at an address where
 * nothing listens.
 */
describe('tests on a machine without a PostgreSQL server', () => {
  it('start the embedded PostgreSQL and pass on it', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, TEST_DATABASE_DEFAULT_URL: 'postgres://postgres@127.0.0.1:1/postgres', TEST_EMBEDDED_PG_PORT: '15438' };
    delete env.TEST_DATABASE_ADMIN_URL;
    const root = resolve(__dirname, '../..');
    const run = spawnSync(process.execPath, [resolve(root, 'node_modules/jest/bin/jest.js'), '--runInBand', 'libs/event-store/src/postgres/postgres-event-store.int-spec.ts'],
      { cwd: root, env, encoding: 'utf8', timeout: 240_000 });
    const output = `${run.stdout}${run.stderr}`;
    expect(output).toContain('nothing answers at postgres://postgres@127.0.0.1:1/postgres; starting an embedded PostgreSQL on 127.0.0.1:15438');
    expect(output).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(run.status).toBe(0);
  }, 300_000);
});
