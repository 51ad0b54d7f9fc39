import { HOUR_MS } from './hour-summary.js';
import { UsageOverTimeMemory, UsageReplayEvent, UsageTableRows } from './usage-over-time.memory.js';

const T0 = Date.UTC(2026, 4, 1);
const at = (hours: number) => new Date(T0 + hours * HOUR_MS);
const claim = (consumer: string, hours: number, resources: Record<string, number>, userId = 'alice'): UsageReplayEvent => ({
  stream: `consumer-${consumer}`, type: 'ConsumerAllocationsReplaced', recordedAt: at(hours),
  data: { allocations: { rp: resources }, project_id: 'p', user_id: userId, consumer_type: 'INSTANCE' },
});
const remove = (consumer: string, hours: number): UsageReplayEvent => ({ stream: `consumer-${consumer}`, type: 'ConsumerRemoved', recordedAt: at(hours), data: {} });

const LOG = [
  claim('a', 0.5, { VCPU: 2 }), claim('b', 0.75, { VCPU: 1, MEMORY_MB: 512 }), claim('a', 1, { VCPU: 4 }),
  claim('c', 2.25, { VCPU: 8 }, 'bob'), remove('b', 2.25), claim('a', 3.5, { VCPU: 4 }, 'bob'), remove('c', 5), remove('a', 6.2),
];

const sorted = (tables: UsageTableRows[], name: string) =>
  tables.filter((t) => t.table === name).flatMap((t) => t.rows).map((row) => JSON.stringify(row)).sort();

describe('usage over time in memory', () => {
  it('drains the hours the log has left behind, and the rows drained and kept are the rows of a replay that never drains', () => {
    const whole = new UsageOverTimeMemory();
    const draining = new UsageOverTimeMemory();
    const drained: UsageTableRows[] = [];
    for (const event of LOG) {
      whole.apply(event);
      draining.apply(event);
      drained.push(...draining.drain());
    }
    // By 6:12 every hour before 5:00 is at least an hour behind.
    const hoursDrained = new Set(sorted(drained, 'rm_usage_hours').map((row) => JSON.parse(row)[4]));
    expect([...hoursDrained].sort()).toEqual([at(0), at(1), at(2), at(3)].map((d) => d.toISOString()));
    const rest = draining.tables();
    for (const table of ['rm_usage_hours', 'rm_usage_moves', 'rm_usage_consumers']) {
      expect([...sorted(drained, table), ...sorted(rest, table)].sort()).toEqual(sorted(whole.tables(), table));
    }
    expect(sorted(draining.drain(true), 'rm_usage_hours').map((row) => JSON.parse(row)[4]))
      .toEqual(sorted(rest, 'rm_usage_hours').map((row) => JSON.parse(row)[4]));
    expect(draining.late()).toEqual([]);
  });

  it('keeps a change for an hour already drained apart, for the projection\'s SQL to fold in', () => {
    const memory = new UsageOverTimeMemory();
    for (const event of LOG) memory.apply(event);
    memory.drain();
    memory.apply(claim('d', 1.5, { VCPU: 3 }));
    expect(memory.late()).toEqual([expect.objectContaining({
      at: at(1.5).getTime(), moves: [{ projectId: 'p', userId: 'alice', consumerType: 'INSTANCE', deltas: { VCPU: 3 } }],
    })]);
    expect(memory.late()[0].changes).toHaveLength(4);
    expect(sorted(memory.tables(), 'rm_usage_hours').some((row) => row.includes(at(1).toISOString()))).toBe(false);
  });

  it('sums unit-milliseconds exactly beyond 2^53 and summarizes again an hour whose changes came out of order', () => {
    const memory = new UsageOverTimeMemory();
    const huge = 2 ** 40;
    memory.apply(claim('a', 0.25, { MEMORY_MB: huge }));
    memory.apply(claim('b', 0.5, { MEMORY_MB: 3 }));
    // Earlier than the hour's latest change: the peak (huge + 3 at 0:30) is worked out again from the moves.
    memory.apply(claim('c', 0.1, { MEMORY_MB: 5 }));
    const project = memory.tables().find((t) => t.table === 'rm_usage_hours')!.rows.find((row) => row[1] === '' && row[2] === '')!;
    const unitMs = BigInt(huge) * BigInt(0.75 * HOUR_MS) + 3n * BigInt(0.5 * HOUR_MS) + 5n * BigInt(0.9 * HOUR_MS);
    expect(project.slice(5, 8)).toEqual([huge + 8, unitMs.toString(), huge + 8]);
  });
});
