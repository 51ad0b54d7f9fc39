import { randomUUID } from 'node:crypto';
import {
  EventStore, LogPoint, NewEvent, PostgresEventStore, RecordedEvent, recordedMicros,
} from '#event-store/index.js';
import { KurrentEventStore } from '#event-store/kurrent/kurrent-event-store.js';
import { InMemoryKurrentClient } from '#event-store/kurrent/testing/in-memory-kurrent-client.js';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { Database, openDatabase } from '../../persistence/database.js';
import { CONSUMER_FOLD, PROVIDER_FOLD } from './folds.js';
import { StreamSnapshots } from './snapshot-store.js';
import { StreamStates } from './stream-states.js';
import { verifySnapshots } from './verify-snapshots.js';

/** A seeded generator, so a failing run can be replayed. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] };
}

jest.setTimeout(60_000);

const SEED = Number(process.env.SNAPSHOT_SEED ?? 20261124);

// The snapshots live with the read models in PostgreSQL whichever store keeps the log.
describe.each(['postgresql', 'kurrentdb'] as const)('as_of from stream snapshots (log in %s)', (logStore) => {
  let testDb: TestDatabase;
  let db: Database;
  let store: EventStore;
  const rng = random(SEED);
  const providers = [randomUUID(), randomUUID(), randomUUID()].map((uuid) => `provider-${uuid}`);
  const consumers = [randomUUID(), randomUUID()].map((uuid) => `consumer-${uuid}`);
  const log: RecordedEvent[] = [];

  /** A random next fact of the stream, its generation one up: the fold is the domain's, the facts need only be well-formed. */
  function nextEvent(stream: string, revision: number): NewEvent {
    const generation = revision;
    if (stream.startsWith('consumer-')) {
      if (revision > 0 && rng.int(8) === 0) return { type: 'ConsumerRemoved', data: { generation, v: 1 } };
      const allocations = { [rng.pick(providers).slice(9)]: { resources: { VCPU: 1 + rng.int(4), MEMORY_MB: 64 * (1 + rng.int(8)) } } };
      return { type: 'ConsumerAllocationsReplaced', data: { allocations, project_id: `p${rng.int(3)}`, user_id: 'u', consumer_type: rng.pick(['INSTANCE', null]), generation, v: 1 } };
    }
    if (revision === 0) return { type: 'ResourceProviderCreated', data: { uuid: stream.slice(9), name: `n-${stream}`, parent_provider_uuid: null, generation: 0, v: 1 } };
    switch (rng.int(4)) {
      case 0: return { type: 'TraitsSet', data: { traits: [`CUSTOM_T${rng.int(5)}`], generation, v: 1 } };
      case 1: return { type: 'InventoriesSet', data: { inventories: { VCPU: { total: 1 + rng.int(64), reserved: 0, min_unit: 1, max_unit: 64, step_size: 1, allocation_ratio: 1 } }, generation, v: 1 } };
      case 2: return { type: 'AggregatesSet', data: { aggregates: [randomUUID()], generation, v: 1 } };
      default: return { type: 'ProviderAllocationsChanged', data: { consumers: { [rng.pick(consumers)]: rng.int(3) === 0 ? {} : { VCPU: 1 + rng.int(4) } }, generation, v: 1 } };
    }
  }

  beforeAll(async () => {
    testDb = await createTestDatabase('pl_snapshots');
    db = await openDatabase(testDb.url, 6, 'async');
    // No inline projection: these facts only feed the replays.
    store = logStore === 'postgresql' ? new PostgresEventStore(db.pool) : new KurrentEventStore(new InMemoryKurrentClient());
    const heads = new Map<string, number>();
    for (let i = 0; i < 240; i++) {
      // Several streams per append now and then, as a claim writes them.
      const touched = [...new Set([rng.pick([...providers, ...consumers]), ...(rng.int(4) === 0 ? [rng.pick(providers)] : [])])];
      await store.append(touched.map((stream) => {
        const head = heads.get(stream) ?? -1;
        heads.set(stream, head + 1);
        return { stream, expectedRevision: head, events: [nextEvent(stream, head + 1)] };
      }));
    }
    for (const stream of [...providers, ...consumers]) log.push(...await store.readStream(stream));
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });

  const fold = (stream: string) => (stream.startsWith('provider-') ? PROVIDER_FOLD : CONSUMER_FOLD) as typeof PROVIDER_FOLD;
  /** Random points: right at an event (by position or by time), a microsecond before one, before and after everything. */
  function points(count: number): LogPoint[] {
    const chosen: LogPoint[] = [{ time: 0n }, { position: { commit: 1n << 62n, prepare: 0n } }];
    for (let i = 0; i < count; i++) {
      const event = rng.pick(log);
      chosen.push(rng.int(3) === 0 ? { time: recordedMicros(event) - BigInt(rng.int(2)) } : { position: event.position });
    }
    return chosen;
  }

  async function expectSameAnswers(withSnapshots: StreamStates, plain: StreamStates, at: readonly LogPoint[]) {
    for (const point of at) {
      for (const stream of [...providers, ...consumers]) {
        const expected = await plain.at(stream, point, fold(stream));
        expect([stream, point, await withSnapshots.at(stream, point, fold(stream))]).toEqual([stream, point, expected]);
      }
    }
  }

  it('answers exactly as a replay from the start, at random points, while writing snapshots and then from them', async () => {
    const snapshots = new StreamSnapshots(db.pool);
    const withSnapshots = new StreamStates(store, snapshots, 4);
    const plain = new StreamStates(store, null);
    const at = points(60);
    await expectSameAnswers(withSnapshots, plain, at);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM rm_stream_snapshots')).rows[0].n).toBeGreaterThan(20);
    await expectSameAnswers(withSnapshots, plain, at);
    expect(await verifySnapshots(db.pool, store)).toEqual({ checked: expect.any(Number), invalid: [] });
  });

  it('never lets a corrupted or stale snapshot change an answer, and verify names each', async () => {
    const snapshots = new StreamSnapshots(db.pool);
    const [corrupted] = (await snapshots.ofStream(providers[0])).slice(-1);
    await db.pool.query(
      `UPDATE rm_stream_snapshots SET state = jsonb_set(state, '{generation}', '999') WHERE stream = $1 AND revision = $2`,
      [corrupted.stream, corrupted.revision]);
    // A snapshot of another log: well-formed and digested, but its event is not where this log has it.
    const [stale] = (await snapshots.ofStream(consumers[0])).slice(-1);
    await db.pool.query('DELETE FROM rm_stream_snapshots WHERE stream = $1 AND revision = $2', [stale.stream, stale.revision]);
    await snapshots.save([{ ...stale, position: { commit: stale.position.commit, prepare: stale.position.prepare + 1n } }]);

    const check = await verifySnapshots(db.pool, store);
    expect(check.invalid).toEqual(expect.arrayContaining([
      { stream: corrupted.stream, revision: corrupted.revision, reason: expect.stringContaining('digest') },
      { stream: stale.stream, revision: stale.revision, reason: expect.stringContaining('not of this log') },
    ]));
    expect(check.invalid).toHaveLength(2);

    const last = (stream: string) => log.filter((e) => e.stream === stream).at(-1)!.position;
    await expectSameAnswers(new StreamStates(store, snapshots, 4), new StreamStates(store, null),
      [{ position: last(providers[0]) }, { position: last(consumers[0]) }, ...points(20)]);
    // Found bad when used, each was dropped and rewritten from the log.
    expect(await verifySnapshots(db.pool, store)).toEqual({ checked: expect.any(Number), invalid: [] });
  });
});
