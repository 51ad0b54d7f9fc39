import type { RecordedEvent } from '#event-store/index.js';
import { eventLog } from '#test/support/event-log.js';
import { useReadModelDatabase } from '#test/support/read-model-database.js';
import { providersProjection } from '../providers/providers.projection.js';
import { allocationsProjection } from './allocations.projection.js';

const CN = 'a0000000-0000-4000-8000-000000000001';
const SS = 'b0000000-0000-4000-8000-000000000002';
const VM1 = 'c0000000-0000-4000-8000-000000000003';
const VM2 = 'd0000000-0000-4000-8000-000000000004';

const event = eventLog();
const provider = (uuid: string, type: string, data: Record<string, unknown>) => event(`provider-${uuid}`, type, data);
const consumer = (uuid: string, type: string, data: Record<string, unknown>) => event(`consumer-${uuid}`, type, data);
const replaced = (uuid: string, allocations: object, generation: number, extra: object = {}) =>
  consumer(uuid, 'ConsumerAllocationsReplaced', { allocations, project_id: 'p', user_id: 'u', consumer_type: null, generation, ...extra });

describe('allocations projection', () => {
  const db = useReadModelDatabase();

  const apply = async (log: RecordedEvent[]) => {
    for (const e of log) {
      for (const projection of [providersProjection, allocationsProjection]) {
        if (projection.handles.includes(e.type)) await projection.apply(db.pool, e);
      }
    }
  };
  const snapshot = async () => ({
    consumers: (await db.pool.query('SELECT uuid, project_id, user_id, consumer_type, generation FROM rm_consumers ORDER BY uuid')).rows,
    allocations: (await db.pool.query(
      'SELECT consumer_uuid, provider_uuid, resource_class, used, created_at FROM rm_allocations ORDER BY 1, 2, 3')).rows,
    providers: (await db.pool.query('SELECT uuid, generation, updated_at FROM rm_resource_providers ORDER BY uuid')).rows,
  });

  it('keeps each consumer\'s whole set and the providers\' generations; replaying the log twice gives the same rows', async () => {
    const log = [
      provider(CN, 'ResourceProviderCreated', { uuid: CN, name: 'cn', parent_provider_uuid: null, generation: 0 }),
      provider(SS, 'ResourceProviderCreated', { uuid: SS, name: 'ss', parent_provider_uuid: null, generation: 0 }),
      replaced(VM1, { [CN]: { VCPU: 2, MEMORY_MB: 512 }, [SS]: { DISK_GB: 10 } }, 1),
      provider(CN, 'ProviderAllocationsChanged', { consumers: { [VM1]: { VCPU: 2, MEMORY_MB: 512 } }, generation: 1 }),
      provider(SS, 'ProviderAllocationsChanged', { consumers: { [VM1]: { DISK_GB: 10 } }, generation: 1 }),
      replaced(VM2, { [SS]: { DISK_GB: 5 } }, 1, { consumer_type: 'INSTANCE' }),
      provider(SS, 'ProviderAllocationsChanged', { consumers: { [VM2]: { DISK_GB: 5 } }, generation: 2 }),
      // VM1 moves off the sharing provider, which keeps its generation (as upstream).
      replaced(VM1, { [CN]: { VCPU: 4 } }, 2, { project_id: 'p2' }),
      provider(CN, 'ProviderAllocationsChanged', { consumers: { [VM1]: { VCPU: 4 } }, generation: 2 }),
      provider(SS, 'ProviderAllocationsChanged', { consumers: { [VM1]: {} }, generation: 2 }),
      consumer(VM2, 'ConsumerRemoved', { generation: 1 }),
      provider(SS, 'ProviderAllocationsChanged', { consumers: { [VM2]: {} }, generation: 2 }),
    ];
    await apply(log);
    const once = await snapshot();
    await apply(log);
    expect(await snapshot()).toEqual(once);

    expect(once.consumers).toEqual([{ uuid: VM1, project_id: 'p2', user_id: 'u', consumer_type: null, generation: 2 }]);
    expect(once.allocations).toEqual([
      { consumer_uuid: VM1, provider_uuid: CN, resource_class: 'VCPU', used: 4, created_at: log[7].recordedAt },
    ]);
    expect(once.providers).toEqual([
      { uuid: CN, generation: 2, updated_at: log[8].recordedAt },
      { uuid: SS, generation: 2, updated_at: log[6].recordedAt },
    ]);
  });

  it('keeps a consumer an empty claim created, holding nothing', async () => {
    await apply([replaced(VM2, {}, 0)]);
    const { consumers, allocations } = await snapshot();
    expect(consumers.find((c) => c.uuid === VM2)).toMatchObject({ generation: 0 });
    expect(allocations.filter((a) => a.consumer_uuid === VM2)).toEqual([]);
  });

  it('numbers the rows in the order the claim wrote them; an event without written_order: providers by uuid, classes by name', async () => {
    const positions = async (uuid: string) => (await db.pool.query(
      'SELECT provider_uuid, resource_class, position FROM rm_allocations WHERE consumer_uuid = $1 ORDER BY position', [uuid])).rows
      .map((r) => `${r.position}:${r.provider_uuid === CN ? 'cn' : 'ss'}:${r.resource_class}`);
    const allocations = { [SS]: { DISK_GB: 10 }, [CN]: { VCPU: 2, MEMORY_MB: 512 } };
    await apply([replaced(VM1, allocations, 1, { written_order: [[SS, ['DISK_GB']], [CN, ['VCPU', 'MEMORY_MB']]] })]);
    expect(await positions(VM1)).toEqual(['0:ss:DISK_GB', '1:cn:VCPU', '2:cn:MEMORY_MB']);
    await apply([replaced(VM2, allocations, 1)]);
    expect(await positions(VM2)).toEqual(['0:cn:MEMORY_MB', '1:cn:VCPU', '2:ss:DISK_GB']);
  });
});
