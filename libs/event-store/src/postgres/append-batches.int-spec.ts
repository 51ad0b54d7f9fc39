import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { cuttingAtCommit } from '#test/support/cut-at-commit.js';
import { AppendRequest, AppendResult, NO_STREAM, WrongExpectedRevision } from '../port.js';
import { send } from './sql-client.js';
import { CommitOutcomeUnknown } from './commit-outcome.js';
import { PostgresEventStore } from './postgres-event-store.js';

describe('appends that arrive together share one transaction (AppendBatches on PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase('pl_batches');
    pool = new Pool({ connectionString: db.url, max: 6 });
    await new PostgresEventStore(pool).ensureSchema();
    await pool.query('CREATE TABLE projected (stream text, revision int, PRIMARY KEY (stream, revision))');
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  /** A store whose projection writes a row per event, and fails (at the COMMIT) for an event asking it to. */
  function storeOn(on: Pool): PostgresEventStore {
    const store = new PostgresEventStore(on);
    store.addInlineProjector(async (tx, events) => {
      for (const event of events) {
        await send(tx, 'INSERT INTO projected (stream, revision) VALUES ($1, $2)', [event.stream, event.revision]);
        if ((event.data as { poison?: boolean }).poison) await send(tx, 'SELECT 1 / 0');
      }
    });
    return store;
  }

  const one = (stream: string, expectedRevision: number, data: object = {}): AppendRequest[] =>
    [{ stream, expectedRevision, events: [{ type: 'Happened', data, metadata: { requestId: `req-${randomUUID()}` } }] }];
  const fresh = (n: number) => Array.from({ length: n }, () => `s-${randomUUID()}`);
  /** A first append, written alone, and those made in the same tick, which wait for it and are then written together. */
  const together = (store: PostgresEventStore, appends: AppendRequest[][]) =>
    Promise.allSettled([one(`lead-${randomUUID()}`, NO_STREAM), ...appends].map((append) => store.append(append))).then((all) => all.slice(1));
  const projected = async (streams: string[]) =>
    (await pool.query('SELECT stream FROM projected WHERE stream = ANY($1) ORDER BY stream', [streams])).rows.map((row) => row.stream);
  const heads = async (streams: string[]) => Object.fromEntries((await pool.query(
    'SELECT stream_id, revision FROM es_streams WHERE stream_id = ANY($1)', [streams])).rows.map((row) => [row.stream_id, Number(row.revision)]));

  it('writes them in one transaction; a stream that moved refuses only its own append, which leaves no trace', async () => {
    const store = storeOn(pool);
    const [taken] = fresh(1);
    await store.append(one(taken, NO_STREAM));
    const streams = fresh(5);
    const twin = `twin-${randomUUID()}`;
    const outcomes = await together(store, [...streams.map((s) => one(s, NO_STREAM)), one(taken, NO_STREAM), one(twin, NO_STREAM), one(twin, NO_STREAM)]);

    const written = outcomes.filter((o): o is PromiseFulfilledResult<AppendResult> => o.status === 'fulfilled').map((o) => o.value);
    expect(written).toHaveLength(6);
    expect(new Set(written.map((w) => w.position.commit)).size).toBe(1);
    expect(outcomes.slice(0, 5).every((o) => o.status === 'fulfilled')).toBe(true);
    const refusedTaken = outcomes[5];
    expect(refusedTaken.status === 'rejected' && refusedTaken.reason).toEqual(new WrongExpectedRevision(taken, NO_STREAM));
    expect(outcomes.slice(6).map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);

    for (const s of [...streams, twin]) expect(await store.readStream(s)).toHaveLength(1);
    expect(await store.readStream(taken)).toHaveLength(1);
    expect(await projected([...streams, taken, twin])).toEqual([...streams, taken, twin].sort());
    expect(await heads([taken, twin])).toEqual({ [taken]: 0, [twin]: 0 });
  });

  it("feeds the projections once per transaction, the written appends' events in the order they were appended", async () => {
    const store = storeOn(pool);
    const calls: string[][] = [];
    store.addInlineProjector(async (_tx, events) => {
      calls.push(events.map((event) => event.stream));
    });
    const streams = fresh(4);
    const lead = `lead-${randomUUID()}`;
    const outcomes = await Promise.all([lead, ...streams].map((s) => store.append(one(s, NO_STREAM))));
    const commits = outcomes.map((o) => o.position.commit);
    // Appends made in one tick share transactions (the first may go alone): one call for each.
    expect(calls).toHaveLength(new Set(commits).size);
    expect(calls.length).toBeLessThan(commits.length);
    expect(calls.flat()).toEqual([lead, ...streams]);
  });

  it("leaves a refused append's events out of what the transaction projects", async () => {
    const store = storeOn(pool);
    const calls: string[][] = [];
    store.addInlineProjector(async (_tx, events) => {
      calls.push(events.map((event) => event.stream));
    });
    const [taken] = fresh(1);
    await store.append(one(taken, NO_STREAM, { first: true }));
    const streams = fresh(3);
    const outcomes = await together(store, [one(streams[0], NO_STREAM), one(taken, NO_STREAM), one(streams[1], NO_STREAM), one(streams[2], NO_STREAM)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    // Projected before it was written, the whole batch failed with the moved stream and was projected again without it.
    expect(calls.at(-1)!.filter((stream) => !stream.startsWith('lead-'))).toEqual(streams);
    expect(await projected([...streams, taken])).toEqual([...streams, taken].sort());
    expect((await store.readStream(taken)).map((event) => event.data)).toEqual([{ first: true }]);
  });

  it('sends a batch whose revisions are all foreseen in one message: BEGIN, every append, the projections and the COMMIT', async () => {
    const messages: string[] = [];
    const counting = {
      connect: async () => {
        const client = await pool.connect();
        return new Proxy(client, {
          get(target, key) {
            if (key !== 'query') return Reflect.get(target, key);
            return (text: unknown, ...rest: unknown[]) => {
              messages.push(typeof text === 'string' ? text : (text as { text: string }).text);
              return (target.query as (...args: unknown[]) => Promise<unknown>).call(target, text, ...rest);
            };
          },
        });
      },
      query: pool.query.bind(pool),
    } as unknown as Pool;
    const store = storeOn(counting);
    // The connections learn their prepared statements first.
    await together(store, fresh(3).map((s) => one(s, NO_STREAM)));
    messages.length = 0;
    const streams = fresh(3);
    const outcomes = await together(store, streams.map((s) => one(s, NO_STREAM)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const batch = messages.filter((text) => text.includes(streams[0]));
    expect(batch).toHaveLength(1);
    expect(batch[0]).toMatch(/^BEGIN;\n[\s\S]*;\nCOMMIT$/);
    for (const s of streams) expect(await store.readStream(s)).toHaveLength(1);
    expect(await projected(streams)).toEqual([...streams].sort());
  });

  it("answers each append of a batch with its own last event's position and its own streams' heads", async () => {
    const store = storeOn(pool);
    const [counted, a, b, c] = fresh(4);
    await store.append([{ stream: counted, expectedRevision: NO_STREAM, events: [{ type: 'Happened', data: {} }, { type: 'Happened', data: {} }] }]);
    const twoEvents: AppendRequest[] = [{ stream: a, expectedRevision: NO_STREAM, events: [{ type: 'Happened', data: { n: 0 } }, { type: 'Happened', data: { n: 1 } }] }];
    // A stream named with no events: locked and its head read, not written.
    const withHead: AppendRequest[] = [{ stream: counted, expectedRevision: 'any', events: [] }, ...one(b, NO_STREAM)];
    const outcomes = await together(store, [twoEvents, withHead, one(c, NO_STREAM)]);

    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const [first, second, third] = (outcomes as PromiseFulfilledResult<AppendResult>[]).map((o) => o.value);
    expect(new Set([first, second, third].map((w) => w.position.commit)).size).toBe(1);
    const lastOf = async (stream: string) => (await store.readStream(stream)).at(-1)!.position;
    expect(first).toEqual({ position: await lastOf(a), revisions: { [a]: 1 } });
    expect(second).toEqual({ position: await lastOf(b), revisions: { [counted]: 1, [b]: 0 } });
    expect(third).toEqual({ position: await lastOf(c), revisions: { [c]: 0 } });
    expect(await heads([counted])).toEqual({ [counted]: 1 });
  });

  describe('an append resting on another on its way (appendAfter)', () => {
    /** A lead written alone, then `first` and the append resting on it, made in the same tick: they share the next transaction. */
    const chained = (store: PostgresEventStore, first: AppendRequest[], after: AppendRequest[]) => {
      const lead = store.append(one(`lead-${randomUUID()}`, NO_STREAM));
      const earlier = store.append(first);
      return Promise.allSettled([earlier, store.appendAfter([earlier], after), lead]).then((all) => all.slice(0, 2));
    };

    it('is written in the same transaction, behind it', async () => {
      const store = storeOn(pool);
      const [s] = fresh(1);
      const outcomes = await chained(store, one(s, NO_STREAM, { n: 0 }), one(s, 0, { n: 1 }));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
      const [first, second] = outcomes as PromiseFulfilledResult<AppendResult>[];
      expect(second.value.position.commit).toBe(first.value.position.commit);
      expect((await store.readStream(s)).map((event) => event.data)).toEqual([{ n: 0 }, { n: 1 }]);
    });

    it('is refused with it, even where another writer took the revision the refused one expected to write', async () => {
      const store = storeOn(pool);
      const [s] = fresh(1);
      await store.append(one(s, NO_STREAM, { by: 'first' }));
      await store.append(one(s, 0, { by: 'another writer' }));
      // The earlier append still expects revision 0; the one resting on it expects what it would
      // have written, revision 1, which the other writer holds: its own check alone would pass.
      const outcomes = await chained(store, one(s, 0, { by: 'stale' }), one(s, 1, { by: 'resting on stale' }));
      expect(outcomes.map((o) => o.status === 'rejected' && o.reason)).toEqual([new WrongExpectedRevision(s, 0), new WrongExpectedRevision(s, 1)]);
      expect((await store.readStream(s)).map((event) => event.data)).toEqual([{ by: 'first' }, { by: 'another writer' }]);
      expect(await heads([s])).toEqual({ [s]: 1 });
      expect(await projected([s])).toEqual([s, s]);
    });

    it('is refused once the one it rests on was refused in an earlier transaction', async () => {
      const store = storeOn(pool);
      const [s] = fresh(1);
      await store.append(one(s, NO_STREAM));
      const refused = store.append(one(s, NO_STREAM));
      await expect(refused).rejects.toBeInstanceOf(WrongExpectedRevision);
      await expect(store.appendAfter([refused], one(s, 0))).rejects.toBeInstanceOf(WrongExpectedRevision);
      expect(await store.readStream(s)).toHaveLength(1);
    });
  });

  it('a transaction that fails as a whole is written again append by append: only the failing one fails', async () => {
    const store = storeOn(pool);
    const [good1, poisoned, good2] = fresh(3);
    const outcomes = await together(store, [one(good1, NO_STREAM), one(poisoned, NO_STREAM, { poison: true }), one(good2, NO_STREAM)]);

    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/division by zero/);
    expect(await store.readStream(good1)).toHaveLength(1);
    expect(await store.readStream(good2)).toHaveLength(1);
    expect(await store.readStream(poisoned)).toEqual([]);
    expect(await projected([good1, poisoned, good2])).toEqual([good1, good2].sort());
    expect(await heads([poisoned])).toEqual({});
  });

  it('does not wait long for a lock another transaction holds: its appends are then written one by one', async () => {
    const store = storeOn(pool);
    const [held, ...free] = fresh(3);
    await store.append(one(held, NO_STREAM));
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM es_streams WHERE stream_id = $1 FOR UPDATE', [held]);
      const outcomes = together(store, [one(free[0], NO_STREAM), one(held, 0), one(free[1], NO_STREAM)]);
      // Written alone, the appends to the free streams need not wait for the lock to be released.
      const freeWritten = Promise.all(free.map(async (s) => {
        while ((await store.readStream(s)).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }));
      await expect(Promise.race([freeWritten.then(() => 'written'), new Promise((resolve) => setTimeout(resolve, 2000, 'waiting'))])).resolves.toBe('written');
      await holder.query('COMMIT');
      const written = (await outcomes).map((o) => (o.status === 'fulfilled' ? o.value.position.commit : o.reason));
      expect(written.every((w) => typeof w === 'bigint')).toBe(true);
      expect(new Set(written).size).toBe(3);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
  });

  it('answers every append of the transaction written when its COMMIT was cut off after the server committed', async () => {
    const store = storeOn(cuttingAtCommit(pool, 'after'));
    const streams = fresh(3);
    const outcomes = await together(store, streams.map((s) => one(s, NO_STREAM)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    for (const s of streams) expect(await new PostgresEventStore(pool).readStream(s)).toHaveLength(1);
  });

  it('answers every append with the doubt when its COMMIT was cut off and the outcome cannot be learned, and writes none of them again', async () => {
    const cut = cuttingAtCommit(pool, 'after');
    // The database cannot be asked whether the COMMIT held.
    const store = storeOn({ connect: cut.connect.bind(cut), query: () => Promise.reject(new Error('the database is away')) } as unknown as Pool);
    const streams = fresh(3);
    const outcomes = await together(store, streams.map((s) => one(s, NO_STREAM)));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const o of outcomes) expect((o as PromiseRejectedResult).reason).toBeInstanceOf(CommitOutcomeUnknown);
    for (const s of streams) expect(await new PostgresEventStore(pool).readStream(s)).toHaveLength(1);
  });

  it('settles a cut COMMIT alike where the batch was written append by append (one at any revision)', async () => {
    const atAny = (stream: string): AppendRequest[] => [{ ...one(stream, 0)[0], expectedRevision: 'any' }];
    const streams = fresh(3);
    const written = await together(storeOn(cuttingAtCommit(pool, 'after')), [one(streams[0], NO_STREAM), atAny(streams[1])]);
    expect(written.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    expect((written[1] as PromiseFulfilledResult<AppendResult>).value.revisions).toEqual({ [streams[1]]: 0 });
    const lost = await together(storeOn(cuttingAtCommit(pool, 'before')), [atAny(streams[2])]);
    expect(String((lost[0] as PromiseRejectedResult).reason)).toMatch(/Connection terminated unexpectedly/);
    for (const [s, events] of [[streams[0], 1], [streams[1], 1], [streams[2], 0]] as const) {
      expect(await new PostgresEventStore(pool).readStream(s)).toHaveLength(events);
    }
  });

  it('answers every append of the transaction failed when its COMMIT was cut off before, and writes none of them', async () => {
    const store = storeOn(cuttingAtCommit(pool, 'before'));
    const streams = fresh(3);
    const outcomes = await together(store, streams.map((s) => one(s, NO_STREAM)));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const o of outcomes) expect(String((o as PromiseRejectedResult).reason)).toMatch(/Connection terminated unexpectedly/);
    for (const s of streams) expect(await new PostgresEventStore(pool).readStream(s)).toEqual([]);
    expect(await projected(streams)).toEqual([]);
  });
});
