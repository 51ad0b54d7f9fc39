import { Client, Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { AppendsBusy, comparePositions, NO_STREAM } from '../port.js';
import { PostgresEventStore } from './postgres-event-store.js';

describe('PostgreSQL holdAppends: appends wait while the log stands still', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  const append = (stream: string) => store.append([{ stream, expectedRevision: NO_STREAM, events: [{ type: 'T', data: {} }] }]);

  beforeAll(async () => {
    db = await createTestDatabase('pl_hold');
    pool = new Pool({ connectionString: db.url, max: 6 });
    store = new PostgresEventStore(pool);
    await store.ensureSchema();
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('lets no append commit until the work ends, and names the last one committed before as the head', async () => {
    const before = await append('h-1');
    const order: string[] = [];
    await store.holdAppends(async (head) => {
      expect(comparePositions(head, before.position)).toBe(0);
      const during = append('h-2').then(() => order.push('append'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      order.push('work done');
      void during;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(order).toEqual(['work done', 'append']);
  });

  it('gives up with AppendsBusy, doing nothing, when an append holds its streams too long', async () => {
    const stuck = new Client({ connectionString: db.url });
    await stuck.connect();
    try {
      await stuck.query('BEGIN');
      await stuck.query(`INSERT INTO es_streams (stream_id, revision) VALUES ('h-stuck', 0)`);
      let ran = false;
      await expect(store.holdAppends(async () => { ran = true; })).rejects.toBeInstanceOf(AppendsBusy);
      expect(ran).toBe(false);
    } finally {
      await stuck.query('ROLLBACK');
      await stuck.end();
    }
  });

  it('reads an empty log in a database no server has started on', async () => {
    const bare = await createTestDatabase('pl_hold_bare');
    const barePool = new Pool({ connectionString: bare.url, max: 2 });
    try {
      const bareStore = new PostgresEventStore(barePool);
      expect(await bareStore.head()).toEqual({ commit: 0n, prepare: 0n });
      expect(await bareStore.countEvents({ commit: 0n, prepare: 0n })).toBe(0);
    } finally {
      await barePool.end();
      await bare.drop();
    }
  });
});
