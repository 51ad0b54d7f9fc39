import type { RecordedEvent } from '#event-store/index.js';
import { useReadModelDatabase } from '#test/support/read-model-database.js';
import { seededRandom } from '#test/support/seeded-random.js';
import { UsageOverTimeMemory } from './usage-over-time.memory.js';
import { usageOverTimeProjection } from './usage-over-time.projection.js';

const RP = 'a0000000-0000-4000-8000-000000000001';
const VM1 = 'c0000000-0000-4000-8000-000000000001';
const VM2 = 'c0000000-0000-4000-8000-000000000002';
const VM3 = 'c0000000-0000-4000-8000-000000000003';
const VM4 = 'c0000000-0000-4000-8000-000000000004';
const VM5 = 'c0000000-0000-4000-8000-000000000005';
const VM6 = 'c0000000-0000-4000-8000-000000000006';
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 1, 10);

const revisions = new Map<string, number>();
let sequence = 0;
function event(uuid: string, type: string, data: Record<string, unknown>, hours: number): RecordedEvent<any> {
  const stream = `consumer-${uuid}`;
  const revision = (revisions.get(stream) ?? -1) + 1;
  revisions.set(stream, revision);
  sequence++;
  return {
    stream, revision, position: { commit: BigInt(sequence), prepare: BigInt(sequence) }, type, data: { ...data, v: 1 },
    metadata: {}, recordedAt: new Date(T0 + hours * HOUR),
  };
}
const claim = (uuid: string, hours: number, resources: Record<string, number>, extra: object = {}) =>
  event(uuid, 'ConsumerAllocationsReplaced',
    { allocations: { [RP]: resources }, project_id: 'p', user_id: 'alice', consumer_type: 'INSTANCE', generation: 1, ...extra }, hours);
const remove = (uuid: string, hours: number) => event(uuid, 'ConsumerRemoved', { generation: 2 }, hours);

/**
 * Consumers over a day: changes inside hours, on an hour's first instant, two at one instant, a
 * change of user, and two consumers whose changes cancel out at one instant (at 10:45, and alone
 * in 12:00-13:00, which then has no row).
 */
const LOG = [
  claim(VM1, 0.25, { VCPU: 2, MEMORY_MB: 1024 }),
  claim(VM2, 0.5, { VCPU: 4 }),
  claim(VM1, 1, { VCPU: 8, MEMORY_MB: 1024 }),
  claim(VM3, 1.5, { VCPU: 1 }, { consumer_type: null }),
  remove(VM2, 1.5),
  claim(VM1, 3.75, { VCPU: 8 }, { user_id: 'bob' }),
  claim(VM4, 10.25, { VCPU: 3 }),
  claim(VM5, 10.5, { VCPU: 2 }),
  remove(VM5, 10.75),
  claim(VM6, 10.75, { VCPU: 2 }),
  remove(VM6, 12.5),
  claim(VM5, 12.5, { VCPU: 2 }),
  remove(VM3, 20),
  remove(VM1, 23.5),
];

describe('usage over time projection', () => {
  const db = useReadModelDatabase();

  const apply = async (log: readonly RecordedEvent[]) => {
    for (const e of log) await usageOverTimeProjection.apply(db.pool, e);
  };
  const clear = () => db.pool.query('TRUNCATE rm_usage_hours, rm_usage_moves, rm_usage_consumers');
  const canonical = (value: unknown) => (value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value));
  const snapshot = async () => {
    const tables: Record<string, string[][]> = {};
    for (const table of new UsageOverTimeMemory().tables()) {
      const { rows } = await db.pool.query({ text: `SELECT ${table.columns.join(', ')} FROM ${table.table}`, rowMode: 'array' });
      tables[table.table] = rows.map((row: unknown[]) => row.map(canonical)).sort();
    }
    return tables;
  };
  const hourRow = async (user: string, type: string, rc: string, hours: number) => (await db.pool.query(
    `SELECT net_change::int AS net, change_unit_ms::text AS unit_ms, peak_above_start::int AS peak FROM rm_usage_hours
      WHERE project_id = 'p' AND user_id = $1 AND consumer_type = $2 AND resource_class = $3 AND hour_start = $4`,
    [user, type, rc, new Date(T0 + hours * HOUR)])).rows[0];

  it('replaying the log twice gives the same rows', async () => {
    await apply(LOG);
    const once = await snapshot();
    await apply(LOG);
    expect(await snapshot()).toEqual(once);
    expect(once.rm_usage_consumers).toHaveLength(6);
  });

  it('stores each hour\'s changes relative to its start level', async () => {
    // Project VCPU, 10:00-11:00: +2 at :15, +4 at :30 -> 2 x 45 min + 4 x 30 min, peak 6 above 0.
    expect(await hourRow('', '', 'VCPU', 0)).toEqual({ net: 6, unit_ms: String(2 * 0.75 * HOUR + 4 * 0.5 * HOUR), peak: 6 });
    // 11:00-12:00: +6 on the first instant, then +1 and -4 at :30 -> 12 units at most, 6 above the start level.
    expect(await hourRow('', '', 'VCPU', 1)).toEqual({ net: 3, unit_ms: String(6 * HOUR - 3 * 0.5 * HOUR), peak: 6 });
    // The untyped consumer counts as 'unknown'; alice's 8 VCPU move to bob at 13:45.
    expect(await hourRow('', 'unknown', 'VCPU', 1)).toEqual({ net: 1, unit_ms: String(0.5 * HOUR), peak: 1 });
    expect(await hourRow('alice', '', 'VCPU', 3)).toEqual({ net: -8, unit_ms: String(-8 * 0.25 * HOUR), peak: 0 });
    expect(await hourRow('bob', 'INSTANCE', 'VCPU', 3)).toEqual({ net: 8, unit_ms: String(8 * 0.25 * HOUR), peak: 8 });
  });

  it('gives the same rows whatever order other consumers\' events arrive in, as the in-memory replay does', async () => {
    const expected = await snapshot();
    const byConsumer = (uuid: string) => LOG.filter((e) => e.stream === `consumer-${uuid}`);
    for (const order of [[VM3, VM2, VM1, VM6, VM5, VM4], [VM2, VM1, VM3, VM4, VM6, VM5], [VM5, VM1, VM6, VM3, VM4, VM2]]) {
      await clear();
      await apply(order.flatMap(byConsumer));
      expect(await snapshot()).toEqual(expected);
    }
    // Interleaved late: VM3's and VM2's 11:30 events arrive after VM1's 13:45 change to other hours.
    await clear();
    await apply([LOG[0], LOG[1], LOG[2], LOG[5], LOG[4], LOG[3], ...LOG.slice(6)]);
    expect(await snapshot()).toEqual(expected);

    const memory = new UsageOverTimeMemory();
    for (const e of LOG) memory.apply({ stream: e.stream, type: e.type, data: e.data, recordedAt: e.recordedAt });
    const fromMemory = Object.fromEntries(memory.tables().map((t) => [t.table, t.rows.map((row) => row.map(canonical)).sort()]));
    expect(fromMemory).toEqual(expected);
  });

  it('moves nothing where changes cancel out at one instant', async () => {
    await clear();
    await apply(LOG);
    // 10:00-11:00: +3 at :15, +2 at :30; at :45 one consumer's 2 VCPU leave as another's arrive.
    const { rows } = await db.pool.query(
      `SELECT last_change_at FROM rm_usage_hours WHERE project_id = 'p' AND user_id = '' AND consumer_type = '' AND resource_class = 'VCPU' AND hour_start = $1`,
      [new Date(T0 + 10 * HOUR)]);
    expect(rows).toEqual([{ last_change_at: new Date(T0 + 10.5 * HOUR) }]);
    expect(await hourRow('', '', 'VCPU', 10)).toEqual({ net: 5, unit_ms: String(3 * 0.75 * HOUR + 2 * 0.5 * HOUR), peak: 5 });
    expect(await hourRow('', '', 'VCPU', 12)).toBeUndefined();
  });

  it('keeps no NULL peak and ignores the removal of a consumer it never saw', async () => {
    await apply([event('d0000000-0000-4000-8000-000000000009', 'ConsumerRemoved', { generation: 1 }, 2)]);
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM rm_usage_hours WHERE peak_above_start IS NULL');
    expect(rows[0].n).toBe(0);
    expect((await db.pool.query("SELECT 1 FROM rm_usage_consumers WHERE consumer_uuid LIKE 'd%'")).rowCount).toBe(0);
  });

  it('folds many changes at one instant (one transaction\'s appends) as the in-memory replay does: rises, falls, and an instant cancelled out', async () => {
    await clear();
    const burst = (n: number) => `e0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const BURST = [
      // 06:15: three rises at one instant, the first to the hour's peak.
      claim(burst(1), 20.25, { VCPU: 2 }), claim(burst(2), 20.25, { VCPU: 3 }), claim(burst(3), 20.25, { VCPU: 1, MEMORY_MB: 512 }),
      // 06:30: a rise, a fall below it, then a rise under the hour's peak, all at one instant.
      claim(burst(4), 20.5, { VCPU: 4 }), remove(burst(1), 20.5), remove(burst(2), 20.5), claim(burst(5), 20.5, { VCPU: 2 }),
      // 07:00, the hour's first instant: a rise, a fall past it, and a rise that cancels the instant out.
      claim(burst(6), 21, { VCPU: 1 }), remove(burst(4), 21), claim(burst(7), 21, { VCPU: 3 }),
    ];
    await apply(BURST);
    const memory = new UsageOverTimeMemory();
    for (const e of BURST) memory.apply({ stream: e.stream, type: e.type, data: e.data, recordedAt: e.recordedAt });
    const fromMemory = Object.fromEntries(memory.tables().map((t) => [t.table, t.rows.map((row) => row.map(canonical)).sort()]));
    expect(await snapshot()).toEqual(fromMemory);
    // 06:00-07:00: 6 VCPU from :15, 6 + 4 - 2 - 3 + 2 = 7 from :30 (the peak), and alice's per-user row alike.
    expect(await hourRow('', '', 'VCPU', 20)).toEqual({ net: 7, unit_ms: String(6 * 0.75 * HOUR + 1 * 0.5 * HOUR), peak: 7 });
    expect(await hourRow('alice', '', 'VCPU', 20)).toEqual({ net: 7, unit_ms: String(6 * 0.75 * HOUR + 1 * 0.5 * HOUR), peak: 7 });
    // 07:00-08:00: +1 - 4 + 3 on its first instant moved nothing: no row.
    expect(await hourRow('', '', 'VCPU', 21)).toBeUndefined();
  });

  it('folds falls below the peak at the latest instant (a batch of deletes) without reading the hour\'s moves again', async () => {
    await clear();
    const vm = (n: number) => `f0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const boots = [1, 2, 3, 4, 5, 6].map((n) => claim(vm(n), 30 + n / 10, { VCPU: n, MEMORY_MB: 256 }));
    // One instant, as one transaction's appends: each delete after the first lowers the level at the hour's latest instant.
    const deletes = [2, 5, 1, 6].map((n) => remove(vm(n), 30.75));
    const memory = new UsageOverTimeMemory();
    for (const e of [...boots, ...deletes]) memory.apply({ stream: e.stream, type: e.type, data: e.data, recordedAt: e.recordedAt });
    const fromMemory = memory.tables().find((t) => t.table === 'rm_usage_hours')!.rows.map((row) => row.map(canonical)).sort();
    await apply(boots);
    // Without the boots' moves a recomputation would get the hour wrong: the falls must not need one.
    await db.pool.query('TRUNCATE rm_usage_moves');
    await apply(deletes);
    expect((await snapshot()).rm_usage_hours).toEqual(fromMemory);
    // 06:00-07:00 of the next day: 21 VCPU at :36, the peak; 7 left after :45.
    expect(await hourRow('', '', 'VCPU', 30)).toMatchObject({ net: 7, peak: 21 });
  });

  it('gives the in-memory replay\'s rows for random claims and deletes crowding a few instants, some arriving late', async () => {
    for (const seed of [11, 12, 13, 14, 15]) {
      await clear();
      const random = seededRandom(seed);
      const vm = (n: number) => `a${String(seed).padStart(7, '0')}-0000-4000-8000-${String(n).padStart(12, '0')}`;
      // Few instants over two hours, so that most changes share one with others: one transaction's appends.
      const instants = [40, 40.25, 40.5, 40.75, 41, 41.5].map((h) => h + seed * 24);
      const held = new Set<number>();
      const log: RecordedEvent[] = [];
      for (let i = 0; i < 60; i++) {
        const n = random.int(12);
        const at = instants[Math.min(instants.length - 1, Math.floor(i / 10) + random.int(2))];
        if (held.has(n) && random.next() < 0.5) {
          log.push(remove(vm(n), at));
          held.delete(n);
        } else {
          log.push(claim(vm(n), at, { VCPU: 1 + random.int(4), MEMORY_MB: 256 * random.int(3) }, { user_id: random.pick(['alice', 'bob']) }));
          held.add(n);
        }
      }
      const memory = new UsageOverTimeMemory();
      for (const e of log) memory.apply({ stream: e.stream, type: e.type, data: e.data, recordedAt: e.recordedAt });
      // A consumer's events keep their order; other consumers' may come late (a transaction committing after later ones).
      const late = log.filter((e, i) => i % 7 === 3 && log.findIndex((o) => o.stream === e.stream) === i && log.filter((o) => o.stream === e.stream).length === 1);
      await apply([...log.filter((e) => !late.includes(e)), ...late]);
      // The hour rows (the moves' deltas differ only in their keys' order, jsonb's against insertion's).
      const fromMemory = memory.tables().find((t) => t.table === 'rm_usage_hours')!.rows.map((row) => row.map(canonical)).sort();
      expect(fromMemory.length).toBeGreaterThan(10);
      expect((await snapshot()).rm_usage_hours).toEqual(fromMemory);
    }
  });
});
