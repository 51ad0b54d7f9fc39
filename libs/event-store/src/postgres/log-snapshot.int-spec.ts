import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { countEvents, countEventsAfter, LogSnapshot, readEventsNotIn, readHeadIn } from './log-snapshot.js';
import { PostgresEventStore } from './postgres-event-store.js';

describe('LogSnapshot', () => {
  let testDb: TestDatabase;
  let db: { pool: Pool; close(): Promise<void> };
  beforeAll(async () => {
    testDb = await createTestDatabase('pl_log_snapshot');
    const pool = new Pool({ connectionString: testDb.url, max: 2 });
    db = { pool, close: () => pool.end() };
    await new PostgresEventStore(pool).ensureSchema();
    // Transaction ids whose text sorts the other way round ('10' < '9'): the order must be numeric.
    await db.pool.query(
      `INSERT INTO es_events (transaction_id, stream_id, revision, type, data, metadata, recorded_at)
       VALUES ('10', 's-b', 0, 'Later', '{}', '{}', now()), ('9', 's-a', 0, 'Earlier', '{}', '{}', now()),
              ('9', 's-a', 1, 'Earlier', '{}', '{}', now())`);
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });

  it('reads the log in the order of its writing transactions, then of positions', async () => {
    const client = await db.pool.connect();
    try {
      const log = await LogSnapshot.open(client);
      const read = [];
      for await (const batch of log.batches(2, false)) read.push(...batch);
      await log.close();
      expect(read.map((e) => [e.commit, e.stream, e.revision])).toEqual([['9', 's-a', 0], ['9', 's-a', 1], ['10', 's-b', 0]]);
      // A snapshot from before transaction 5 saw none of them; one from after 20 saw them all.
      expect(await readEventsNotIn(client, '20:20:')).toEqual([]);
      const all = await readEventsNotIn(client, '5:5:');
      expect(all.map((e) => e.commit)).toEqual(['9', '9', '10']);
      expect(await readHeadIn(client)).toMatchObject({ commit: '10' });
      expect(await countEvents(client)).toBe(3);
      const [first] = all;
      expect(await countEventsAfter(client, [{ commit: '0', position: '0' }, { commit: first.commit, position: first.position }, { commit: '10', position: '99' }]))
        .toEqual([3, 2, 0]);
    } finally {
      client.release();
    }
  });
});
