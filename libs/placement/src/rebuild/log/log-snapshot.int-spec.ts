import { createTestDatabase, TestDatabase } from '../../../../../test/support/database.js';
import { Database, openDatabase } from '../../persistence/database.js';
import { LogSnapshot, readEventsNotIn } from './log-snapshot.js';

describe('LogSnapshot', () => {
  let testDb: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase('pl_log_snapshot');
    db = await openDatabase(testDb.url, 2);
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
    } finally {
      client.release();
    }
  });
});
