import { consumerTypeScope } from '../usages/usage-grouping.js';
import { consumerAt, providerAt, rootOf, usageRows } from './as-of-state.js';
import { streamOf } from './ledger-fixtures.js';

const created = (uuid: string, parent: string | null = null) =>
  ({ type: 'ResourceProviderCreated', data: { uuid, name: uuid, parent_provider_uuid: parent, generation: 0 } });
const replaced = (allocations: Record<string, Record<string, number>>, generation: number, more: Record<string, unknown> = {}) => ({
  type: 'ConsumerAllocationsReplaced',
  data: { allocations, project_id: 'p1', user_id: 'u1', consumer_type: 'INSTANCE', generation, ...more },
});

describe('state at a point of the log', () => {
  it('is the provider as its events up to there make it', () => {
    const events = streamOf('provider-rp', [
      created('rp'),
      { type: 'TraitsSet', data: { traits: ['HW_CPU_X86_AVX'], generation: 1 } },
      { type: 'ResourceProviderUpdated', data: { name: 'renamed', parent_provider_uuid: null, generation: 1 } },
    ]);
    expect(providerAt([])).toEqual({ status: 'absent' });
    expect(providerAt(events.slice(0, 2))).toMatchObject({ status: 'active', name: 'rp', generation: 1, traits: ['HW_CPU_X86_AVX'] });
    expect(providerAt(events)).toMatchObject({ name: 'renamed', generation: 1 });
    expect(providerAt([...events, ...streamOf('provider-rp', [{ type: 'ResourceProviderDeleted', data: { generation: 1 } }], 9)]))
      .toEqual({ status: 'deleted', uuid: 'rp' });
  });

  it('is the consumer as its last write left it, absent once removed', () => {
    const events = streamOf('consumer-c', [replaced({ rp: { VCPU: 1 } }, 1), replaced({ rp: { VCPU: 2 } }, 2)]);
    expect(consumerAt(events)).toMatchObject({ status: 'active', generation: 2, allocations: { rp: { VCPU: 2 } } });
    expect(consumerAt([...events, ...streamOf('consumer-c', [{ type: 'ConsumerRemoved', data: { generation: 2 } }], 5)])).toEqual({ status: 'absent' });
  });
});

describe('the root of a provider', () => {
  it('is the top of the parents as they were', () => {
    const parents = new Map<string, string | null>([['leaf', 'mid'], ['mid', 'top'], ['top', null]]);
    expect(rootOf('leaf', (uuid) => parents.get(uuid))).toBe('top');
    expect(rootOf('top', (uuid) => parents.get(uuid))).toBe('top');
  });

  it('stops at an ancestor it does not know, and at a loop', () => {
    expect(rootOf('leaf', (uuid) => (uuid === 'leaf' ? 'gone' : undefined))).toBe('gone');
    expect(rootOf('a', (uuid) => (uuid === 'a' ? 'b' : 'a'))).toBe('b');
  });
});

describe('usage rows of replayed consumers', () => {
  const consumers = [
    consumerAt(streamOf('consumer-1', [replaced({ rp1: { VCPU: 2, MEMORY_MB: 512 }, rp2: { VCPU: 1 } }, 1)])),
    consumerAt(streamOf('consumer-2', [replaced({ rp1: { VCPU: 4 } }, 1, { user_id: 'u2' })])),
    consumerAt(streamOf('consumer-3', [replaced({ rp1: { VCPU: 8 } }, 1, { consumer_type: null })])),
    consumerAt(streamOf('consumer-4', [replaced({ rp1: { VCPU: 16 } }, 1, { project_id: 'p2' })])),
    consumerAt(streamOf('consumer-5', [replaced({}, 0)])),
  ];
  const sorted = (rows: ReturnType<typeof usageRows>) => [...rows].sort((a, b) => `${a.consumer_type}${a.resource_class}`.localeCompare(`${b.consumer_type}${b.resource_class}`));

  it('sum each type and class of the project, counting consumers that hold anything', () => {
    expect(sorted(usageRows(consumers, { projectId: 'p1', scope: consumerTypeScope(undefined) }))).toEqual([
      { consumer_type: 'INSTANCE', resource_class: 'MEMORY_MB', used: 512, consumer_count: 2 },
      { consumer_type: 'INSTANCE', resource_class: 'VCPU', used: 7, consumer_count: 2 },
      { consumer_type: null, resource_class: 'VCPU', used: 8, consumer_count: 1 },
    ]);
  });

  it('narrow to a user and to a consumer type, "unknown" being no type', () => {
    expect(usageRows(consumers, { projectId: 'p1', userId: 'u2', scope: consumerTypeScope(undefined) }))
      .toEqual([{ consumer_type: 'INSTANCE', resource_class: 'VCPU', used: 4, consumer_count: 1 }]);
    expect(usageRows(consumers, { projectId: 'p1', scope: consumerTypeScope('unknown') }))
      .toEqual([{ consumer_type: null, resource_class: 'VCPU', used: 8, consumer_count: 1 }]);
    expect(usageRows(consumers, { projectId: 'p3', scope: consumerTypeScope(undefined) })).toEqual([]);
  });
});
