import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { handleConnectionLoss } from './read-model-schema.js';

/** Found by killing a primary under the API (test/e2e/postgres-failover.e2e-spec.ts): it ended the process. */
describe('the API pool and a connection lost while checked out', () => {
  let db: TestDatabase;
  let pool: Pool;
  beforeAll(async () => {
    db = await createTestDatabase('pl_loss');
    pool = new Pool({ connectionString: db.url, max: 2 });
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('keeps a pooled connection that dies while checked out from crashing the process', async () => {
    const guarded = new Pool({ connectionString: db.url, max: 2, onConnect: handleConnectionLoss } as never);
    const client = await guarded.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await pool.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    // Without a listener the client's 'error' event would be thrown out of the socket's handler.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(client.query('SELECT 1')).rejects.toThrow(/not queryable|terminat/);
    client.release();
    expect((await guarded.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await guarded.end();
  });
});
