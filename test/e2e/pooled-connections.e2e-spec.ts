import { Client } from 'pg';
import { ADMIN_URL, createTestDatabase, TestDatabase } from '../support/database.js';
import { startServerProcess, ServerProcess } from '../support/server-process.js';

jest.setTimeout(90_000);

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * The API's connections to PostgreSQL live as upstream's pool keeps them: through quiet spells,
 * until they reach [placement_database] connection_recycle_time (PLACEMENT_DB_CONNECTION_RECYCLE_TIME).
 * With inline projections every backend of the test's database is the pool's.
 */
describe('the API pool through a quiet spell', () => {
  let db: TestDatabase;
  let server: ServerProcess | undefined;
  let admin: Client;
  beforeAll(async () => {
    admin = new Client({ connectionString: ADMIN_URL });
    await admin.connect();
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await db?.drop();
  });
  afterAll(() => admin.end());

  const backends = async (): Promise<number[]> => {
    const { rows } = await admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() ORDER BY pid', [new URL(db.url).pathname.slice(1)]);
    return rows.map((row) => row.pid);
  };
  const listProviders = async () => (await fetch(`${server!.url}/resource_providers`, { headers: { 'x-auth-token': 'admin' } })).status;

  it('keeps idle connections past the 10 s pg-pool would close them at', async () => {
    db = await createTestDatabase('pl_pool');
    server = await startServerProcess({ DATABASE_URL: db.url, PLACEMENT_AUTH_STRATEGY: 'noauth2' });
    expect(await listProviders()).toBe(200);
    const before = await backends();
    expect(before.length).toBeGreaterThan(0);
    await pause(11_500);
    expect(await backends()).toEqual(before);
    expect(await listProviders()).toBe(200);
    expect(await backends()).toEqual(before);
  });

  it('replaces a connection once it is older than the recycle time, and serves on new ones', async () => {
    db = await createTestDatabase('pl_pool');
    server = await startServerProcess({ DATABASE_URL: db.url, PLACEMENT_AUTH_STRATEGY: 'noauth2', PLACEMENT_DB_CONNECTION_RECYCLE_TIME: '1' });
    expect(await listProviders()).toBe(200);
    const before = await backends();
    expect(before.length).toBeGreaterThan(0);
    await pause(2_500);
    expect(await backends()).toEqual([]);
    expect(await listProviders()).toBe(200);
    const after = await backends();
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((pid) => before.includes(pid))).toEqual([]);
  });
});
