import { eventLog } from '#test/support/event-log.js';
import { useReadModelDatabase } from '#test/support/read-model-database.js';
import { providersProjection } from './providers.projection.js';

const A = 'a0000000-0000-4000-8000-000000000001';
const B = 'b0000000-0000-4000-8000-000000000002';
const C = 'c0000000-0000-4000-8000-000000000003';
const D = 'd0000000-0000-4000-8000-000000000004';

const record = eventLog();
const event = (uuid: string, type: string, data: Record<string, unknown>) => record(`provider-${uuid}`, type, data);
const created = (uuid: string, name: string, parent: string | null = null) =>
  event(uuid, 'ResourceProviderCreated', { uuid, name, parent_provider_uuid: parent, generation: 0 });
const updated = (uuid: string, name: string, parent: string | null) =>
  event(uuid, 'ResourceProviderUpdated', { name, parent_provider_uuid: parent, generation: 0 });

describe('providers projection', () => {
  const db = useReadModelDatabase();

  const rows = async () => (await db.pool.query(
    'SELECT uuid, name, generation, parent_provider_uuid, root_provider_uuid, updated_at FROM rm_resource_providers ORDER BY uuid')).rows;
  const tags = async () => ({
    traits: (await db.pool.query('SELECT provider_uuid, trait FROM rm_provider_traits ORDER BY 1, 2')).rows,
    aggregates: (await db.pool.query('SELECT provider_uuid, aggregate_uuid FROM rm_provider_aggregates ORDER BY 1, 2')).rows,
    inventories: (await db.pool.query('SELECT provider_uuid, resource_class, total FROM rm_inventories ORDER BY 1, 2')).rows,
  });

  it('keeps trees, roots and child rows; replaying the log twice gives the same rows', async () => {
    const inventory = { total: 8, reserved: 0, min_unit: 1, max_unit: 8, step_size: 1, allocation_ratio: 1 };
    const log = [
      created(A, 'a'), created(B, 'b', A), created(C, 'c', B), created(D, 'd'),
      event(B, 'TraitsSet', { traits: ['CUSTOM_X'], generation: 1 }),
      event(C, 'InventoriesSet', { inventories: { VCPU: inventory }, generation: 1 }),
      event(D, 'AggregatesSet', { aggregates: ['e0000000-0000-4000-8000-000000000005'], generation: 1 }),
      updated(B, 'b', D),
      updated(C, 'c2', null),
      event(A, 'ResourceProviderDeleted', { generation: 0 }),
    ];
    for (const e of log) await providersProjection.apply(db.pool, e);
    const once = { rows: await rows(), tags: await tags() };
    for (const e of log) await providersProjection.apply(db.pool, e);
    expect({ rows: await rows(), tags: await tags() }).toEqual(once);

    expect(once.rows.map((r) => [r.uuid, r.name, r.parent_provider_uuid, r.root_provider_uuid])).toEqual([
      [B, 'b', D, D], [C, 'c2', null, C], [D, 'd', null, D],
    ]);
    expect(once.tags).toEqual({
      traits: [{ provider_uuid: B, trait: 'CUSTOM_X' }],
      aggregates: [{ provider_uuid: D, aggregate_uuid: 'e0000000-0000-4000-8000-000000000005' }],
      inventories: [{ provider_uuid: C, resource_class: 'VCPU', total: 8 }],
    });
  });

  it('leaves updated_at alone when the generation does not move, as upstream', async () => {
    const before = (await rows()).find((r) => r.uuid === D)!;
    await providersProjection.apply(db.pool, event(D, 'AggregatesSet', { aggregates: [], generation: before.generation }));
    const after = (await rows()).find((r) => r.uuid === D)!;
    expect(after.updated_at).toEqual(before.updated_at);
    expect((await tags()).aggregates).toEqual([]);
  });
});
