import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { PostgresEventStore } from './postgres-event-store.js';

/**
 * A PostgreSQL stream can hold a revision before the one under it in the global order: the
 * transaction that wrote revision 1 began (took its id) first and waited for revision 0's to
 * commit. Read up to a point, the stream is its run of revisions up to the first one past it.
 */
describe('PostgreSQL: a stream read up to a point is a run of revisions', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  const at = (commit: bigint, prepare: bigint) => ({ position: { commit, prepare } });

  beforeAll(async () => {
    db = await createTestDatabase('pl_es_run');
    pool = new Pool({ connectionString: db.url, max: 2 });
    store = new PostgresEventStore(pool);
    await store.ensureSchema();
    await pool.query(
      `INSERT INTO es_events (position, transaction_id, stream_id, revision, type, data, metadata, recorded_at)
       VALUES (1, '100', 's', 0, 'A', '{}', '{}', '2026-01-01T00:00:02Z'), (2, '90', 's', 1, 'B', '{}', '{}', '2026-01-01T00:00:01Z'),
              (3, '110', 's', 2, 'C', '{}', '{}', '2026-01-01T00:00:03Z')`);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  const revisions = async (range: Parameters<PostgresEventStore['readStreamRange']>[1]) =>
    (await store.readStreamRange('s', range)).map((event) => event.revision);

  it('never holds a revision without the ones below it', async () => {
    expect(await revisions({ until: at(90n, 2n) })).toEqual([]);
    expect(await revisions({ until: at(100n, 1n) })).toEqual([0, 1]);
    expect(await revisions({ until: at(110n, 3n) })).toEqual([0, 1, 2]);
    const second = BigInt(Date.parse('2026-01-01T00:00:01Z')) * 1000n;
    expect(await revisions({ until: { time: second } })).toEqual([]);
    expect(await revisions({ until: { time: second + 1_000_000n } })).toEqual([0, 1]);
  });

  it('runs from where a forwards read starts, and from revision 0 backwards', async () => {
    expect(await revisions({ fromRevision: 1, until: at(90n, 2n) })).toEqual([1]);
    expect(await revisions({ direction: 'backwards', until: at(90n, 2n) })).toEqual([]);
    expect(await revisions({ direction: 'backwards', fromRevision: 1, until: at(110n, 3n) })).toEqual([1, 0]);
  });
});
