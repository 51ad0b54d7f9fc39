import { Pool } from 'pg';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { cuttingAtCommit } from '#test/support/cut-at-commit.js';
import { CommitOutcomeUnknown, resolveCommit } from './commit-outcome.js';
import { PostgresEventStore } from './postgres-event-store.js';

describe('a COMMIT whose connection is lost (in doubt)', () => {
  let db: TestDatabase;
  let pool: Pool;
  beforeAll(async () => {
    db = await createTestDatabase('pl_doubt');
    pool = new Pool({ connectionString: db.url, max: 4 });
    await new PostgresEventStore(pool).ensureSchema();
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  const claim = (stream: string) => [{ stream, expectedRevision: -1 as const, events: [{ type: 'Claimed', data: {}, metadata: { requestId: `req-${randomUUID()}` } }] }];

  it('answers success when the database committed it: asked again, the events are there', async () => {
    const stream = `consumer-${randomUUID()}`;
    const result = await new PostgresEventStore(cuttingAtCommit(pool, 'after')).append(claim(stream));
    expect(result.revisions[stream]).toBe(0);
    expect(await new PostgresEventStore(pool).readStream(stream)).toHaveLength(1);
  });

  it('answers the failure when the database did not commit it: its transaction is known to have ended', async () => {
    const stream = `consumer-${randomUUID()}`;
    await expect(new PostgresEventStore(cuttingAtCommit(pool, 'before')).append(claim(stream))).rejects.toThrow('Connection terminated unexpectedly');
    expect(await new PostgresEventStore(pool).readStream(stream)).toEqual([]);
  });

  it('says the outcome is unknown while the transaction is still in flight (a commit waiting for its standby)', async () => {
    const open = await pool.connect();
    try {
      await open.query('BEGIN');
      const { rows } = await open.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
      const mark = { stream: `consumer-${randomUUID()}`, revision: 0, transactionId: BigInt(rows[0].xid), metadata: '{}' };
      await expect(resolveCommit(pool, mark, new Error('Connection terminated unexpectedly'), 700)).rejects.toBeInstanceOf(CommitOutcomeUnknown);
    } finally {
      await open.query('ROLLBACK');
      open.release();
    }
  });

});
