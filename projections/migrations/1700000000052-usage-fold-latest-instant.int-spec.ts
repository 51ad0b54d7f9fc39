import type { RecordedEvent } from '#event-store/index.js';
import { useMigrationDatabase } from '#test/support/migration-database.js';
import { UsageOverTimeMemory } from '../usage-over-time/usage-over-time.memory.js';
import { usageOverTimeProjection } from '../usage-over-time/usage-over-time.projection.js';
import { UsageOverTime1700000000020 } from './1700000000020-usage-over-time.js';
import { UsageMoves1700000000021 } from './1700000000021-usage-moves.js';
import { UsageKeysBytewise1700000000022 } from './1700000000022-usage-keys-bytewise.js';
import { UsageFoldFunction1700000000050 } from './1700000000050-usage-fold-function.js';
import { UsageFoldSameInstant1700000000051 } from './1700000000051-usage-fold-same-instant.js';
import { UsageFoldLatestInstant1700000000052 } from './1700000000052-usage-fold-latest-instant.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 5, 1, 8);
const revisions = new Map<string, number>();
function event(consumer: string, hours: number, resources: Record<string, number> | null, userId = 'alice'): RecordedEvent<any> {
  const stream = `consumer-${consumer}`;
  const revision = (revisions.get(stream) ?? -1) + 1;
  revisions.set(stream, revision);
  const data = resources
    ? { allocations: { rp: resources }, project_id: 'p', user_id: userId, consumer_type: 'INSTANCE', generation: revision + 1, v: 1 }
    : { generation: revision + 1, v: 1 };
  return {
    stream, revision, position: { commit: BigInt(revisions.size), prepare: 0n }, type: resources ? 'ConsumerAllocationsReplaced' : 'ConsumerRemoved',
    data, metadata: {}, recordedAt: new Date(T0 + hours * HOUR),
  };
}
// Rises and falls at shared instants, a user passing a consumer on, an instant cancelled out.
const LOG = [
  event('a', 0.25, { VCPU: 2 }), event('b', 0.25, { VCPU: 4, MEMORY_MB: 512 }), event('c', 0.5, { VCPU: 1 }, 'bob'),
  event('a', 0.5, null), event('b', 0.75, { VCPU: 4, MEMORY_MB: 512 }, 'bob'), event('d', 1.5, { VCPU: 3 }), event('d', 1.5, null),
  event('c', 1.75, null),
];

describe('migration 052: the hour rows keep their latest instant\'s net', () => {
  const db = useMigrationDatabase('pl_latest_net', [UsageOverTime1700000000020, UsageMoves1700000000021, UsageKeysBytewise1700000000022,
    UsageFoldFunction1700000000050, UsageFoldSameInstant1700000000051]);
  const hourRows = async () => (await db.client.query({
    text: `SELECT project_id, user_id, consumer_type, resource_class, hour_start, net_change::text, change_unit_ms::text, peak_above_start::text,
                  last_change_at, last_change_net::text FROM rm_usage_hours`,
    rowMode: 'array',
  })).rows.map((row: unknown[]) => JSON.stringify(row)).sort();

  it('fills the column for the rows already folded, as the in-memory replay makes it, and going back drops it', async () => {
    for (const e of LOG) await usageOverTimeProjection.apply(db.client, e);
    await new UsageFoldLatestInstant1700000000052().up(db.runner());
    const memory = new UsageOverTimeMemory();
    for (const e of LOG) memory.apply(e);
    const hours = memory.tables().find((table) => table.table === 'rm_usage_hours')!;
    const expected = hours.rows.map((row) => JSON.stringify(row.map((value, i) => (i >= 5 && i !== 8 ? String(value) : value)))).sort();
    expect(expected.length).toBeGreaterThan(8);
    expect(await hourRows()).toEqual(expected);

    await new UsageFoldLatestInstant1700000000052().down(db.runner());
    await expect(hourRows()).rejects.toThrow(/last_change_net/);
    // 051's function folds again without the column.
    await usageOverTimeProjection.apply(db.client, event('e', 2.5, { VCPU: 1 }));
    expect((await db.client.query('SELECT count(*)::int AS n FROM rm_usage_hours WHERE hour_start = $1', [new Date(T0 + 2 * HOUR)])).rows).toEqual([{ n: 4 }]);
  });
});
