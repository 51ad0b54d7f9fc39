import { Client, Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { LogPosition, START } from '../port.js';
import { PostgresEventStore } from './postgres-event-store.js';

jest.setTimeout(60_000);

/**
 * readAll reads only below the oldest transaction of this database still in flight, so that a
 * follower never passes a writer it cannot see yet, and other databases' transactions must not
 * hold it back.
 */
describe('PostgreSQL readAll: the in-flight bound', () => {
  let testDb: TestDatabase;
  let other: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  beforeAll(async () => {
    [testDb, other] = await Promise.all([createTestDatabase('pl_horizon'), createTestDatabase('pl_horizon_other')]);
    pool = new Pool({ connectionString: testDb.url, max: 12 });
    store = new PostgresEventStore(pool);
    await store.ensureSchema();
  });
  afterAll(async () => {
    await pool.end();
    await Promise.all([testDb.drop(), other.drop()]);
  });

  const append = (stream: string) => store.append([{ stream, expectedRevision: -1, events: [{ type: 'Tagged', data: {} }] }]);
  const streamsAfter = async (from: LogPosition) => (await store.readAll(from, 1_000_000)).map((e) => e.stream);

  it('never lets a follower polling without pause pass a writer that commits while it reads', async () => {
    // A writer in flight when a read's snapshot is taken may commit before the read looks up
    // which database it writes: it must still bound that read (the follower once skipped such events).
    const writers = 8, perWriter = 300;
    const seen = new Set<string>();
    let position = START;
    let writing = true;
    const follow = async () => {
      const batch = await store.readAll(position, 500);
      for (const event of batch) seen.add(event.stream);
      if (batch.length > 0) position = batch[batch.length - 1].position;
      return batch.length;
    };
    const follower = (async () => {
      while (writing) await follow();
      while ((await follow()) > 0);
    })();
    await Promise.all(Array.from({ length: writers }, async (_v, w) => {
      for (let i = 0; i < perWriter; i++) await append(`race-${w}-${i}`);
    }));
    writing = false;
    await follower;
    const all = (await streamsAfter(START)).filter((s) => s.startsWith('race-'));
    expect(all).toHaveLength(writers * perWriter);
    expect(all.filter((s) => !seen.has(s))).toEqual([]);
  });

  /**
   * A transaction of another database, then one of this database, each left open before an
   * append: `read` from before both sees the first append at once, and the second only once its
   * transaction's elder here has committed. `whileHeld` runs while it is held back.
   */
  async function heldBackHereOnly(prefix: string, read: (from: LogPosition) => Promise<string[]>, whileHeld: () => Promise<void> = async () => undefined) {
    const before = await store.head();
    const elsewhere = new Client({ connectionString: other.url });
    const here = new Client({ connectionString: testDb.url });
    await Promise.all([elsewhere.connect(), here.connect()]);
    try {
      await elsewhere.query('BEGIN');
      await elsewhere.query('SELECT pg_current_xact_id()');
      await append(`${prefix}-a-long-transaction-elsewhere`);
      expect(await read(before)).toEqual([`${prefix}-a-long-transaction-elsewhere`]);

      await here.query('BEGIN');
      await here.query('SELECT pg_current_xact_id()');
      await append(`${prefix}-a-long-transaction-here`);
      expect(await read(before)).toEqual([`${prefix}-a-long-transaction-elsewhere`]);
      await whileHeld();
      await here.query('COMMIT');
      expect(await read(before)).toEqual([`${prefix}-a-long-transaction-elsewhere`, `${prefix}-a-long-transaction-here`]);
    } finally {
      await Promise.all([elsewhere.query('ROLLBACK').catch(() => undefined), here.query('ROLLBACK').catch(() => undefined)]);
      await Promise.all([elsewhere.end(), here.end()]);
    }
  }

  it('is held back by a transaction of this database, not by one of another database', async () => {
    await heldBackHereOnly('after', streamsAfter);
  });

  describe('readToHead', () => {
    it('is held back by a transaction of this database older than the head, not by one of another database', async () => {
      const streamsToHead = async (from: LogPosition) => (await store.readToHead(from, 1_000_000)).events.map((e) => e.stream);
      // The head it answers is the newest event all the same: the candidate index waits for what lies between.
      await heldBackHereOnly('to-head-after', streamsToHead, async () => expect((await store.readToHead(START, 1)).head).toEqual(await store.head()));
    });

    it('plans its statement for any position, once per connection: an ordered scan of the global order, never a sort', async () => {
      // auto_explain hands each plan run, the function's own statement included, to the client.
      const plans: string[] = [];
      const explained = new Pool({ connectionString: testDb.url, max: 1 });
      explained.on('connect', (client) => client.on('notice', (notice) => plans.push(notice.message ?? '')));
      try {
        await explained.query(`LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0;
          SET auto_explain.log_nested_statements = on; SET client_min_messages = log`);
        const store2 = new PostgresEventStore(explained);
        await store2.readToHead(START, 3);
        await store2.readToHead(await store.head(), 3, { types: ['Tagged'], metadata: false });
        const reads = plans.filter((plan) => plan.includes('es_events_global_order') && plan.includes('ROW($1, $2)'));
        expect(reads).toHaveLength(2);
        for (const plan of reads) expect(plan).not.toMatch(/Sort/);
      } finally {
        await explained.end();
      }
    });
  });
});
