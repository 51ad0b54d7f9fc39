import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { START } from '../port.js';
import { PostgresEventStore } from './postgres-event-store.js';

/**
 * Reads select the transaction id as text; ordering by that output column would sort '10' before
 * '9'. Every read of the global order must sort by the column itself, numerically.
 */
describe('PostgreSQL global order', () => {
  let testDb: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;

  beforeAll(async () => {
    testDb = await createTestDatabase('pl_global_order');
    pool = new Pool({ connectionString: testDb.url, max: 2 });
    store = new PostgresEventStore(pool);
    await store.ensureSchema();
    await pool.query(
      `INSERT INTO es_events (transaction_id, stream_id, revision, type, data, metadata, recorded_at)
       VALUES ('10', 's-b', 0, 'Later', '{}', '{"requestId":"r"}', now()), ('9', 's-a', 0, 'Earlier', '{}', '{"requestId":"r"}', now()),
              ('9', 's-a', 1, 'Earlier', '{}', '{"requestId":"r"}', now())`);
  });
  afterAll(async () => {
    await pool.end();
    await testDb.drop();
  });

  it('reads, counts and names the head in the order of the writing transactions, then of positions', async () => {
    const order = (events: { stream: string; revision: number; position: { commit: bigint } }[]) =>
      events.map((e) => [e.position.commit, e.stream, e.revision]);
    const expected = [[9n, 's-a', 0], [9n, 's-a', 1], [10n, 's-b', 0]];
    expect(order(await store.readAll(START, 10))).toEqual(expected);
    expect(order(await store.readRequest('r'))).toEqual(expected);
    const head = await store.head();
    expect(head.commit).toBe(10n);
    const [first] = await store.readAll(START, 1);
    expect(await store.countEvents(START, head)).toBe(3);
    expect(await store.countEvents(first.position, head)).toBe(2);
    expect(order(await store.readAll(first.position, 10, { until: { position: head } }))).toEqual(expected.slice(1));
  });
});
