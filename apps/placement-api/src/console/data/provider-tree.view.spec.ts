import { indexOf } from '#placement/candidates/index/plain-index.js';
import { providerTreeView } from './provider-tree.view.js';

describe('the console\'s provider tree view', () => {
  const index = indexOf([
    { uuid: 'root', inventories: { MEMORY_MB: { total: 4096, reserved: 512 } }, traits: ['HW_CPU_X86_AVX2', 'COMPUTE_NODE'], aggregates: ['agg-b', 'agg-a'] },
    { uuid: 'numa1', parent: 'root', inventories: { VCPU: { total: 8, allocation_ratio: 2 } }, used: { VCPU: 5 } },
    { uuid: 'numa0', parent: 'root', inventories: { VCPU: { total: 4 } } },
    { uuid: 'other' },
  ]);

  it('lists the whole tree of any member, parents first, siblings by name, with depth', () => {
    const view = providerTreeView(index, 'numa1')!;
    expect(view.provider_uuid).toBe('numa1');
    expect(view.root_provider_uuid).toBe('root');
    expect(view.providers.map((p) => [p.uuid, p.depth, p.parent_provider_uuid])).toEqual([['root', 0, null], ['numa0', 1, 'root'], ['numa1', 1, 'root']]);
  });

  it('gives each class its capacity, used and free, and sorted traits and aggregates', () => {
    const [root, , numa1] = providerTreeView(index, 'root')!.providers;
    expect(root.inventories.MEMORY_MB).toMatchObject({ total: 4096, reserved: 512, capacity: 3584, used: 0, free: 3584 });
    expect(numa1.inventories.VCPU).toMatchObject({ total: 8, allocation_ratio: 2, capacity: 16, used: 5, free: 11 });
    expect(root.traits).toEqual(['COMPUTE_NODE', 'HW_CPU_X86_AVX2']);
    expect(root.aggregates).toEqual(['agg-a', 'agg-b']);
  });

  it('names the consumers holding allocations on each provider, with what they hold there', () => {
    const numa1 = providerTreeView(index, 'root')!.providers[2];
    expect(numa1.consumers).toEqual([{ consumer_uuid: expect.any(String), resources: { VCPU: 5 } }]);
    expect(providerTreeView(index, 'root')!.providers[0].consumers).toEqual([]);
  });

  it('names only the holders the caller may see, and keeps every provider and its usage', () => {
    const [root, , numa1] = providerTreeView(index, 'root', () => [])!.providers;
    expect(numa1.consumers).toEqual([]);
    expect(numa1.inventories.VCPU.used).toBe(5);
    expect(root.uuid).toBe('root');
    const asked: string[][] = [];
    providerTreeView(index, 'root', (consumers) => (asked.push([...consumers]), consumers));
    expect(asked.map((consumers) => consumers.length)).toEqual([0, 0, 1]);
  });

  it('shows free below zero when an inventory shrank under its allocations', () => {
    const shrunk = indexOf([{ uuid: 'rp', inventories: { VCPU: { total: 2 } }, used: { VCPU: 3 } }]);
    expect(providerTreeView(shrunk, 'rp')!.providers[0].inventories.VCPU.free).toBe(-1);
  });

  it('knows nothing of a provider the index does not hold', () => {
    expect(providerTreeView(index, 'gone')).toBeNull();
  });
});
