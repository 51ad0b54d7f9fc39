import type { RecordedEvent } from '#event-store/index.js';
import { INDEX_WRITES, nestedTree } from '#test/support/candidate-fixtures.js';
import { seededRandom } from '#test/support/seeded-random.js';
import { applyEvent, movesOnlyUsage } from './apply-event.js';
import { NameCatalog } from './name-catalog.js';
import { activeProvider, indexOf } from './plain-index.js';
import { ProviderIndex, SHARES_VIA_AGGREGATE } from './provider-index.js';

let position = 0n;
const event = (stream: string, type: string, data: object): RecordedEvent<any> => ({
  stream, revision: 0, position: { commit: ++position, prepare: position }, type, data, metadata: {}, recordedAt: new Date(0),
});
const uuids = (nodes: Iterable<{ uuid: string }>) => [...nodes].map((n) => n.uuid).sort();

describe('ProviderIndex', () => {
  it('keeps trees, roots and reverse indexes as providers come and go', () => {
    const index = indexOf([
      { uuid: 'cn', inventories: { VCPU: { total: 8 } }, traits: ['HW_CPU_X86_AVX2'], aggregates: ['a'] },
      { uuid: 'numa', parent: 'cn', inventories: { VCPU: { total: 4 } } },
      { uuid: 'pf', parent: 'numa', inventories: { SRIOV_NET_VF: { total: 8 } } },
      { uuid: 'ss', inventories: { DISK_GB: { total: 100 } }, traits: [SHARES_VIA_AGGREGATE], aggregates: ['a'] },
    ]);
    expect(index.hasTrees).toBe(true);
    expect(index.get('pf')!.root.uuid).toBe('cn');
    expect(uuids(index.roots())).toEqual(['cn', 'ss']);
    expect(uuids(index.tree(index.get('cn')!))).toEqual(['cn', 'numa', 'pf']);
    expect(uuids(index.withClass('VCPU'))).toEqual(['cn', 'numa']);
    expect(uuids(index.inAggregate('a'))).toEqual(['cn', 'ss']);
    expect(uuids(index.sharing)).toEqual(['ss']);

    index.put('pf', { status: 'deleted', uuid: 'pf' });
    index.put('numa', { status: 'deleted', uuid: 'numa' });
    expect(index.hasTrees).toBe(false);
    expect(index.get('cn')!.children).toEqual([]);
    expect(uuids(index.withClass('VCPU'))).toEqual(['cn']);
    expect(index.withClass('SRIOV_NET_VF').size).toBe(0);
  });

  it('lists a tree anew after a provider joins, moves or leaves it', () => {
    const index = indexOf([{ uuid: 'a' }, { uuid: 'b' }, { uuid: 'c', parent: 'b' }]);
    const [a, b] = [index.get('a')!, index.get('b')!];
    expect([uuids(index.tree(a)), uuids(index.tree(b))]).toEqual([['a'], ['b', 'c']]);
    expect(index.tree(b)).toBe(index.tree(b));
    index.put('d', activeProvider({ uuid: 'd', parent: 'a' }));
    expect(uuids(index.tree(a))).toEqual(['a', 'd']);
    index.put('c', { ...activeProvider({ uuid: 'c' }), parentUuid: 'a' });
    expect([uuids(index.tree(a)), uuids(index.tree(b))]).toEqual([['a', 'c', 'd'], ['b']]);
    index.put('d', { status: 'deleted', uuid: 'd' });
    expect(uuids(index.tree(a))).toEqual(['a', 'c']);
  });

  it('moves a whole subtree under its new parent\'s root', () => {
    const index = indexOf([{ uuid: 'a' }, { uuid: 'b' }, { uuid: 'c', parent: 'b' }]);
    index.put('b', { ...activeProvider({ uuid: 'b' }), parentUuid: 'a' });
    expect(index.get('c')!.root.uuid).toBe('a');
    expect(uuids(index.tree(index.get('a')!))).toEqual(['a', 'b', 'c']);
    index.put('b', activeProvider({ uuid: 'b' }));
    expect(index.get('c')!.root.uuid).toBe('b');
    expect(index.get('a')!.children).toEqual([]);
  });

  it('follows facet changes only where they changed', () => {
    const index = indexOf([{ uuid: 'p', traits: ['A', 'B'], aggregates: ['x'], inventories: { VCPU: { total: 1 } } }]);
    const before = index.get('p')!.state;
    index.put('p', { ...before, traits: ['B', 'C'], aggregates: [], inventories: { DISK_GB: before.inventories.VCPU } });
    expect(uuids(index.withTrait('A'))).toEqual([]);
    expect(uuids(index.withTrait('C'))).toEqual(['p']);
    expect(index.inAggregate('x').size).toBe(0);
    expect(index.withClass('VCPU').size).toBe(0);
    expect(uuids(index.withClass('DISK_GB'))).toEqual(['p']);
  });

  it('keeps each provider\'s room in step with its inventories and its usage', () => {
    const index = indexOf([{ uuid: 'p', inventories: { VCPU: { total: 8 } } }]);
    const free = () => Object.fromEntries([...index.get('p')!.rooms].map(([rc, room]) => [rc, room.free]));
    expect(free()).toEqual({ VCPU: 8 });
    index.put('p', activeProvider({ uuid: 'p', inventories: { VCPU: { total: 8 } }, used: { VCPU: 3 } }));
    expect(free()).toEqual({ VCPU: 5 });
    index.put('p', activeProvider({ uuid: 'p', inventories: { VCPU: { total: 8 }, DISK_GB: { total: 10, reserved: 4 } }, used: { VCPU: 3 } }));
    expect(free()).toEqual({ VCPU: 5, DISK_GB: 6 });
    index.put('p', { ...index.get('p')!.state, traits: ['A'] });
    expect(free()).toEqual({ VCPU: 5, DISK_GB: 6 });
  });
});

describe('applyEvent', () => {
  it('folds provider events through the domain evolve, usage from allocations included', () => {
    const index = new ProviderIndex();
    const names = new NameCatalog();
    const stream = 'provider-p1';
    applyEvent(index, names, event(stream, 'ResourceProviderCreated', { uuid: 'p1', name: 'one', parent_provider_uuid: null, generation: 0, v: 1 }));
    applyEvent(index, names, event(stream, 'InventoriesSet', {
      inventories: { VCPU: { total: 8, reserved: 0, min_unit: 1, max_unit: 8, step_size: 1, allocation_ratio: 1 } }, generation: 1, v: 1 }));
    applyEvent(index, names, event(stream, 'ProviderAllocationsChanged', { consumers: { c1: { VCPU: 3 }, c2: { VCPU: 2 } }, generation: 2, v: 1 }));
    applyEvent(index, names, event(stream, 'ProviderAllocationsChanged', { consumers: { c1: {} }, generation: 3, v: 1 }));
    expect(index.get('p1')!.state.usages).toEqual({ VCPU: 2 });
    expect(uuids(index.withClass('VCPU'))).toEqual(['p1']);
    applyEvent(index, names, event(stream, 'SomethingThisBuildDoesNotKnow', {}));
    expect(index.get('p1')!.state.generation).toBe(3);
    applyEvent(index, names, event(stream, 'ResourceProviderDeleted', { generation: 3, v: 1 }));
    expect(index.get('p1')).toBeUndefined();
  });

  it('tells which events only move usage: folding one leaves every set and tree a search walks as it was', () => {
    const index = new ProviderIndex();
    const names = new NameCatalog();
    const created = event('provider-p1', 'ResourceProviderCreated', { uuid: 'p1', name: 'one', parent_provider_uuid: null, generation: 0, v: 1 });
    const inventories = event('provider-p1', 'InventoriesSet', {
      inventories: { VCPU: { total: 8, reserved: 0, min_unit: 1, max_unit: 8, step_size: 1, allocation_ratio: 1 } }, generation: 1, v: 1 });
    for (const e of [created, inventories]) applyEvent(index, names, e);
    const before = index.version;
    const claim = [
      event('provider-p1', 'ProviderAllocationsChanged', { consumers: { c1: { VCPU: 3 } }, generation: 2, v: 1 }),
      event('consumer-c1', 'ConsumerAllocationsReplaced', { project_id: 'p', allocations: { p1: { VCPU: 3 } } }),
    ];
    expect(claim.map(movesOnlyUsage)).toEqual([true, true]);
    for (const e of claim) applyEvent(index, names, e);
    // The journal tells a usage change; any change of shape it cannot tell (null).
    expect(index.changesSince(before)?.map((c) => c.node.uuid)).toEqual(['p1']);
    const reshaping = [created, inventories, event('provider-p1', 'TraitsSet', { traits: ['CUSTOM_X'], generation: 3, v: 1 }),
      event('provider-p1', 'AggregatesSet', { aggregates: [], generation: 3, v: 1 }), event('provider-p1', 'ResourceProviderDeleted', { generation: 3, v: 1 }),
      event('trait-CUSTOM_X', 'TraitCreated', { name: 'CUSTOM_X' }), event('resource-class-CUSTOM_Y', 'ResourceClassCreated', { name: 'CUSTOM_Y' })];
    expect(reshaping.filter(movesOnlyUsage)).toEqual([]);
  });

  it('learns custom classes and traits from their streams', () => {
    const index = new ProviderIndex();
    const names = new NameCatalog();
    expect(names.hasClass('VCPU') && names.hasTrait('HW_CPU_X86_AVX2')).toBe(true);
    applyEvent(index, names, event('resource-class-CUSTOM_A', 'ResourceClassCreated', { name: 'CUSTOM_A', v: 1 }));
    applyEvent(index, names, event('trait-CUSTOM_T', 'TraitCreated', { name: 'CUSTOM_T', v: 1 }));
    expect(names.hasClass('CUSTOM_A') && names.hasTrait('CUSTOM_T')).toBe(true);
    applyEvent(index, names, event('resource-class-CUSTOM_A', 'ResourceClassRenamed', { name: 'CUSTOM_A', to: 'CUSTOM_B', v: 1 }));
    applyEvent(index, names, event('resource-class-CUSTOM_B', 'ResourceClassCreated', { name: 'CUSTOM_B', renamed_from: 'CUSTOM_A', v: 1 }));
    applyEvent(index, names, event('trait-CUSTOM_T', 'TraitDeleted', { name: 'CUSTOM_T', v: 1 }));
    expect([names.hasClass('CUSTOM_A'), names.hasClass('CUSTOM_B'), names.hasTrait('CUSTOM_T')]).toEqual([false, true, false]);
  });

  it('knows which classes only roots hold, through moves, class changes, providers coming and going, and a snapshot', () => {
    const random = seededRandom(20261130);
    const index = indexOf([...nestedTree(0), ...nestedTree(1), { uuid: 'flat', inventories: { VCPU: { total: 8 }, DISK_GB: { total: 10 } } }]);
    const classes = ['VCPU', 'MEMORY_MB', 'DISK_GB', 'FPGA', 'VGPU'];
    const heldByRootsOnly = (rc: string) => [...index.withClass(rc)].every((node) => node.parent === null);
    const seenBoth = new Set<boolean>();
    for (let step = 0; step < 400; step++) {
      random.pick(INDEX_WRITES)(index, random);
      for (const rc of classes) {
        expect({ step, rc, only: index.heldByRootsOnly([rc]) }).toEqual({ step, rc, only: heldByRootsOnly(rc) });
        seenBoth.add(heldByRootsOnly(rc));
      }
      expect(index.heldByRootsOnly(classes)).toBe(classes.every(heldByRootsOnly));
      const restored = ProviderIndex.fromSnapshot(index.toSnapshot());
      expect(classes.map((rc) => restored.heldByRootsOnly([rc]))).toEqual(classes.map(heldByRootsOnly));
    }
    expect(seenBoth).toEqual(new Set([true, false]));
  });

  it('counts a provider\'s classes out of the roots\' where it stood, when one write both moves it and changes its classes', () => {
    const index = indexOf([{ uuid: 'r' }, { uuid: 'c', parent: 'r', inventories: { VGPU: { total: 4 } } }]);
    const only = () => ({ VGPU: index.heldByRootsOnly(['VGPU']), VCPU: index.heldByRootsOnly(['VCPU']) });
    expect(only()).toEqual({ VGPU: false, VCPU: true });
    index.put('c', activeProvider({ uuid: 'c', inventories: { VCPU: { total: 8 } } }));
    expect(only()).toEqual({ VGPU: true, VCPU: true });
    index.put('c', activeProvider({ uuid: 'c', parent: 'r', inventories: { VGPU: { total: 4 } } }));
    expect(only()).toEqual({ VGPU: false, VCPU: true });
    index.put('c', activeProvider({ uuid: 'c', parent: 'r', inventories: { VCPU: { total: 8 } } }));
    expect(only()).toEqual({ VGPU: true, VCPU: false });
    expect(ProviderIndex.fromSnapshot(index.toSnapshot()).heldByRootsOnly(['VCPU'])).toBe(false);
    index.put('r', { status: 'deleted', uuid: 'r' });
    expect(only()).toEqual({ VGPU: true, VCPU: true });
  });

  it('stamps the root of every tree a change touches, each time with a later stamp', () => {
    const index = indexOf([{ uuid: 'a' }, { uuid: 'b' }, { uuid: 'c', parent: 'b' }]);
    const [a, b, c] = ['a', 'b', 'c'].map((uuid) => index.get(uuid)!);
    const stamps = () => [a.stamp, b.stamp];
    let before = stamps();
    // A child's state: its root's stamp moves on, the other tree's stays.
    index.put('c', { ...c.state, usages: { VCPU: 1 } });
    expect(b.stamp).toBeGreaterThan(before[1]);
    expect(a.stamp).toBe(before[0]);
    // A move: both the tree it left and the one it joined.
    before = stamps();
    index.put('c', { ...c.state, parentUuid: 'a' });
    expect(a.stamp).toBeGreaterThan(before[0]);
    expect(b.stamp).toBeGreaterThan(before[1]);
    // A leaving provider: the tree it left.
    before = stamps();
    index.put('c', { status: 'deleted', uuid: 'c' });
    expect(a.stamp).toBeGreaterThan(before[0]);
    expect(b.stamp).toBe(before[1]);
  });
});
