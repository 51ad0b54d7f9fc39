import { Pool } from 'pg';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { cuttingAtCommit } from '#test/support/cut-at-commit.js';
import { CommitOutcomeUnknown, resolveCommit } from './commit-outcome.js';
import { fenceToken } from './recording-time.js';
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

  it('answers success when the database committed it: asked again, the events are there, and so is their position', async () => {
    const stream = `consumer-${randomUUID()}`;
    const result = await new PostgresEventStore(cuttingAtCommit(pool, 'after')).append(claim(stream));
    expect(result.revisions[stream]).toBe(0);
    const logged = await new PostgresEventStore(pool).readStream(stream);
    expect(logged).toHaveLength(1);
    expect(result.position).toEqual(logged[0].position);
  });

  it('settles an append the database numbers itself (at any revision) the same way, committed or not', async () => {
    const [kept, lost] = [`consumer-${randomUUID()}`, `consumer-${randomUUID()}`];
    const atAny = (stream: string) => [{ ...claim(stream)[0], expectedRevision: 'any' as const }];
    const result = await new PostgresEventStore(cuttingAtCommit(pool, 'after')).append(atAny(kept));
    const logged = await new PostgresEventStore(pool).readStream(kept);
    expect(logged).toHaveLength(1);
    expect(result).toEqual({ position: logged[0].position, revisions: { [kept]: 0 } });
    await expect(new PostgresEventStore(cuttingAtCommit(pool, 'before')).append(atAny(lost))).rejects.toThrow('Connection terminated unexpectedly');
    expect(await new PostgresEventStore(pool).readStream(lost)).toEqual([]);
  });

  it('answers the failure when the database did not commit it: its transaction is known to have ended', async () => {
    const stream = `consumer-${randomUUID()}`;
    await expect(new PostgresEventStore(cuttingAtCommit(pool, 'before')).append(claim(stream))).rejects.toThrow('Connection terminated unexpectedly');
    expect(await new PostgresEventStore(pool).readStream(stream)).toEqual([]);
  });

  /** A transaction that appended one event under `fence` and has not ended, as one whose COMMIT waits for its standby. */
  async function inFlight(fence: bigint, stream: string, metadata: object) {
    const open = await pool.connect();
    try {
      await open.query('BEGIN');
      await open.query('SELECT * FROM es_append($1::bigint, now(), $2::text[], $3::bigint[], $4::int[], $5::text[], $6::jsonb[], $7::jsonb[])',
        [fence.toString(), [stream], [-1], [1], ['Claimed'], ['{}'], [JSON.stringify(metadata)]]);
      return open;
    } catch (error) {
      await open.query('ROLLBACK');
      open.release();
      throw error;
    }
  }
  const markFor = (fence: bigint, stream: string, metadata: object) => ({ stream, revision: 0, fence, metadata: JSON.stringify(metadata), revisions: { [stream]: 0 } });

  it('says the outcome is unknown while the transaction is still in flight (a commit waiting for its standby)', async () => {
    const fence = fenceToken();
    const stream = `consumer-${randomUUID()}`;
    const metadata = { requestId: `req-${randomUUID()}` };
    const open = await inFlight(fence, stream, metadata);
    try {
      await expect(resolveCommit(pool, markFor(fence, stream, metadata), new Error('Connection terminated unexpectedly'), 700))
        .rejects.toBeInstanceOf(CommitOutcomeUnknown);
    } finally {
      await open.query('ROLLBACK');
      open.release();
    }
  });

  it('waits for a transaction in flight to end, and answers where its event stands once it committed', async () => {
    const fence = fenceToken();
    const stream = `consumer-${randomUUID()}`;
    const metadata = { requestId: `req-${randomUUID()}` };
    const open = await inFlight(fence, stream, metadata);
    try {
      const settled = resolveCommit(pool, markFor(fence, stream, metadata), new Error('Connection terminated unexpectedly'), 5000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await open.query('COMMIT');
      const [logged] = await new PostgresEventStore(pool).readStream(stream);
      await expect(settled).resolves.toEqual(logged.position);
    } finally {
      open.release();
    }
  });

  it('fences a transaction settled as not committed: its message, arriving later, writes nothing', async () => {
    const fence = fenceToken();
    const stream = `consumer-${randomUUID()}`;
    const metadata = { requestId: `req-${randomUUID()}` };
    await expect(resolveCommit(pool, markFor(fence, stream, metadata), new Error('Connection terminated unexpectedly'), 2000)).resolves.toBe('not committed');
    const late = await inFlight(fence, stream, metadata).then(async (open) => { await open.query('ROLLBACK'); open.release(); return 'written'; },
      (error: { code?: string }) => error.code);
    expect(late).toBe('ES410');
    expect(await new PostgresEventStore(pool).readStream(stream)).toEqual([]);
    // Asked again, the answer stands.
    await expect(resolveCommit(pool, markFor(fence, stream, metadata), new Error('again'), 2000)).resolves.toBe('not committed');
  });
});
