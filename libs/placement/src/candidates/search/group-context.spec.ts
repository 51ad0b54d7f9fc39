import { NameCatalog } from '../index/name-catalog.js';
import { indexOf } from '../index/plain-index.js';
import { Explain } from './explain.js';
import { aggregateTest, canProvide, resolveGroup } from './group-context.js';
import { group } from './request-builder.js';

const uuids = (nodes: Iterable<{ uuid: string }> | undefined) => [...(nodes ?? [])].map((n) => n.uuid).sort();

describe('canProvide: upstream capacity clause', () => {
  const index = indexOf([
    { uuid: 'p', inventories: { VCPU: { total: 10, reserved: 2, allocation_ratio: 1.5 }, MEMORY_MB: { total: 2048, min_unit: 256, max_unit: 1024, step_size: 256 } }, used: { VCPU: 10 } },
  ]);
  const p = index.get('p')!;

  it('counts (total - reserved) * ratio minus usage', () => {
    expect(canProvide(p, 'VCPU', 2)).toBe(true);
    expect(canProvide(p, 'VCPU', 3)).toBe(false);
  });

  it('keeps amounts within min_unit, max_unit and a whole number of steps', () => {
    expect([128, 256, 768, 1024, 1280, 300].map((n) => canProvide(p, 'MEMORY_MB', n))).toEqual([false, true, true, true, false, false]);
    expect(canProvide(p, 'DISK_GB', 1)).toBe(false);
  });
});

describe('resolveGroup', () => {
  const names = new NameCatalog();
  const index = indexOf([
    { uuid: 'cn1', aggregates: ['a', 'b'], inventories: { VCPU: { total: 4 } } },
    { uuid: 'cn2', aggregates: ['b'], inventories: { VCPU: { total: 1 } } },
    { uuid: 'numa', parent: 'cn2', inventories: { VCPU: { total: 8 } } },
  ]);

  it('narrows member_of sets with AND between sets and OR within one', () => {
    const meeting = (memberOf: string[][]) => uuids(['cn1', 'cn2', 'numa'].map((u) => index.get(u)!).filter(aggregateTest(memberOf)));
    expect(meeting([['a', 'b']])).toEqual(['cn1', 'cn2']);
    expect(meeting([['a'], ['b']])).toEqual(['cn1']);
    expect(meeting([['nope']])).toEqual([]);
  });

  it('records, per class, who has room, inside in_tree when given', () => {
    const explain = new Explain();
    const ctx = resolveGroup(index, names, group('', { resources: [['VCPU', 2]] }), explain)!;
    expect(uuids(ctx.withResource.get('VCPU'))).toEqual(['cn1', 'numa']);
    expect(explain.steps).toEqual([{ step: "group '': providers with 2 VCPU free", count: 2 }]);
    const inTree = resolveGroup(index, names, group('1', { resources: [['VCPU', 2]], inTree: 'numa' }), new Explain())!;
    expect(inTree.treeRoot!.uuid).toBe('cn2');
    expect(uuids(inTree.withResource.get('VCPU'))).toEqual(['numa']);
  });

  it('says "nothing matches" for an unknown in_tree, an empty member_of or no room', () => {
    expect(resolveGroup(index, names, group('', { resources: [['VCPU', 1]], inTree: 'ghost' }), new Explain())).toBeNull();
    expect(resolveGroup(index, names, group('', { resources: [['VCPU', 1]], memberOf: [['nope']] }), new Explain())).toBeNull();
    expect(resolveGroup(index, names, group('', { resources: [['VCPU', 99]] }), new Explain())).toBeNull();
  });

  it('checks names in upstream order: classes, then member_of, then traits', () => {
    expect(() => resolveGroup(index, names, group('', { resources: [['NOPE', 1]], requiredTraits: [['NOPE_T']] }), new Explain()))
      .toThrow('No such resource class NOPE.');
    // An unmatched member_of ends the search before the traits are looked up, as upstream.
    expect(resolveGroup(index, names, group('', { resources: [['VCPU', 1]], memberOf: [['nope']], requiredTraits: [['NOPE_T']] }), new Explain())).toBeNull();
    expect(() => resolveGroup(index, names, group('', { resources: [['VCPU', 1]], forbiddenTraits: ['NOPE_T'] }), new Explain()))
      .toThrow('No such trait(s): NOPE_T.');
  });
});
