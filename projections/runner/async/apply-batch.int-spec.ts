import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import type { RecordedEvent, SqlClient } from '#event-store/index.js';
import type { Projection } from '../projection.js';
import { seedProjectionCheckpoints } from '../checkpoints.js';
import { Database, openDatabase } from '#placement/persistence/database.js';
import { applyBatch, BEHIND } from './apply-batch.js';
import { readCheckpoints } from './checkpoint-rows.js';

/** Counts every application, so an event applied twice shows (real projections are idempotent and would hide it). */
const counting: Projection = {
  name: 'test_counting',
  handles: ['Counted'],
  apply: async (tx: SqlClient, event: RecordedEvent) => {
    await tx.query('INSERT INTO t_applied (stream, revision) VALUES ($1, $2)', [event.stream, event.revision]);
  },
};

describe('applyBatch on PostgreSQL', () => {
  let database: TestDatabase;
  let db: Database;
  const applied = async () => (await db.pool.query('SELECT stream, revision FROM t_applied ORDER BY stream, revision')).rows;

  beforeAll(async () => {
    database = await createTestDatabase('pl_batch');
    db = await openDatabase(database.url, 4, 'async');
    await db.pool.query('CREATE TABLE t_applied (stream text, revision int)');
    await seedProjectionCheckpoints(db.pool, [counting]);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it('applies a batch once with its checkpoint, and a replay of it (an overlapping leader) applies nothing', async () => {
    await db.eventStore.append([{ stream: 'a', expectedRevision: -1, events: [{ type: 'Counted', data: {} }, { type: 'Other', data: {} }] }]);
    await db.eventStore.append([{ stream: 'b', expectedRevision: -1, events: [{ type: 'Counted', data: {} }] }]);
    const events = await db.eventStore.readAll({ commit: 0n, prepare: 0n }, 100);
    expect(events).toHaveLength(3);
    const client = await db.pool.connect();
    try {
      const start = { commit: 0n, prepare: 0n };
      await expect(applyBatch(client, [counting], start, events)).resolves.toEqual(events[2].position);
      await expect(applyBatch(client, [counting], start, events)).resolves.toEqual(events[2].position);
      expect(await applied()).toEqual([{ stream: 'a', revision: 0 }, { stream: 'b', revision: 0 }]);
      expect((await readCheckpoints(db.pool, ['test_counting'])).get('test_counting')).toEqual(events[2].position);
    } finally {
      client.release();
    }
  });

  it('writes nothing when the checkpoint stands before where the batch was read from (it would skip events)', async () => {
    await db.eventStore.append([{ stream: 'c', expectedRevision: -1, events: [{ type: 'Counted', data: {} }] }]);
    const all = await db.eventStore.readAll({ commit: 0n, prepare: 0n }, 100);
    const client = await db.pool.connect();
    try {
      await db.pool.query("UPDATE rm_projection_checkpoints SET commit_xid = '0', position = 0 WHERE projection = 'test_counting'");
      await expect(applyBatch(client, [counting], all[2].position, all.slice(3))).resolves.toBe(BEHIND);
      expect(await applied()).toHaveLength(2);
      // Resumed from the checkpoint, the same batch plan applies what the checkpoint lacks, and nothing twice.
      await db.pool.query('DELETE FROM t_applied');
      await expect(applyBatch(client, [counting], { commit: 0n, prepare: 0n }, all)).resolves.toEqual(all[3].position);
      expect(await applied()).toEqual([{ stream: 'a', revision: 0 }, { stream: 'b', revision: 0 }, { stream: 'c', revision: 0 }]);
    } finally {
      client.release();
    }
  });
});
