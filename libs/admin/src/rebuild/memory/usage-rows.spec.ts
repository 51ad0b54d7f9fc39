import { HOUR_MS } from '#projections/usage-over-time/hour-summary.js';
import { UsageOverTimeMemory, UsageReplayEvent } from '#projections/usage-over-time/usage-over-time.memory.js';
import { copyChunks } from '../schema/copy-in.js';
import { usageChunks, UsageRowsThread } from './usage-rows.js';

const T0 = Date.UTC(2026, 4, 1);
const claim = (consumer: string, hours: number, resources: Record<string, number>, userId: string): UsageReplayEvent => ({
  stream: `consumer-${consumer}`, type: 'ConsumerAllocationsReplaced', recordedAt: new Date(T0 + hours * HOUR_MS),
  data: { allocations: { rp: resources }, project_id: 'p', user_id: userId, consumer_type: 'INSTANCE' },
});
// Two claimants at one instant, a consumer passing to another user, hours left behind as the log goes on.
const LOG = [claim('a', 0.5, { VCPU: 2 }, 'alice'), claim('b', 0.5, { VCPU: 1, MEMORY_MB: 512 }, 'alice'),
  claim('a', 1.25, { VCPU: 4 }, 'bob'), claim('c', 2.5, { VCPU: 8 }, 'bob'), claim('b', 4, { VCPU: 1 }, 'carol')];
const TYPES = {
  rm_usage_moves: { project_id: 'text', user_id: 'text', consumer_type: 'text', at: 'timestamp with time zone', deltas: 'jsonb' },
  rm_usage_hours: { project_id: 'text', user_id: 'text', consumer_type: 'text', resource_class: 'text', hour_start: 'timestamp with time zone',
    net_change: 'bigint', change_unit_ms: 'numeric', peak_above_start: 'bigint', last_change_at: 'timestamp with time zone', last_change_net: 'bigint' },
};
/** Each row's COPY line with its table, whichever chunk holds it. */
const text = (chunks: { table: string; data: Buffer }[]) =>
  chunks.flatMap((c) => c.data.toString().split('\n').filter(Boolean).map((line) => `${c.table}: ${line}`)).sort();

describe('usage rows made apart', () => {
  it('makes from the closed hours\' moves the very COPY text of the rows of a replay that never drains', async () => {
    const whole = new UsageOverTimeMemory();
    const draining = new UsageOverTimeMemory();
    const closed = [];
    for (const event of LOG) {
      whole.apply(event);
      draining.apply(event);
      closed.push(...draining.drainHours());
    }
    expect(closed.map((hour) => hour.hour)).toEqual([0, 1, 2].map((h) => T0 + h * HOUR_MS));
    closed.push(...draining.drainHours(true));
    const expected = whole.tables().filter((table) => table.table in TYPES)
      .flatMap((table) => [...copyChunks(table, new Map(Object.entries(TYPES[table.table as keyof typeof TYPES])), 3)]);
    expect(text(expected)).toHaveLength(32);
    expect(text(usageChunks(closed, TYPES, 3))).toEqual(text(expected));
    // Run from the sources there is no compiled worker: the same rows, made on this thread.
    const thread = UsageRowsThread.start(TYPES, 3);
    expect(thread.threaded).toBe(false);
    expect(text(await thread.chunks(closed))).toEqual(text(expected));
    await thread.stop();
  });
});
