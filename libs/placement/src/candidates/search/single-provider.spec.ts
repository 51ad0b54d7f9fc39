import { NameCatalog } from '../index/name-catalog.js';
import { indexOf } from '../index/plain-index.js';
import { SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { SharingAnchors } from './anchors.js';
import { Explain } from './explain.js';
import { resolveGroup } from './group-context.js';
import { group } from './request-builder.js';
import { countSingleProviderChoices, singleProviderChoices } from './single-provider.js';
import { groupMatcher } from './group-match.js';
import { checkGroup } from './group-context.js';
import { RequestGroup } from '../request.js';

const names = new NameCatalog();
const index = indexOf([
  { uuid: 'cn1', aggregates: ['a'], traits: ['HW_CPU_X86_AVX2', 'HW_CPU_X86_SSE'], inventories: { VCPU: { total: 8 } } },
  { uuid: 'cn2', aggregates: ['a', 'b'], traits: ['HW_CPU_X86_AVX2'], inventories: { VCPU: { total: 8 } } },
  { uuid: 'cn3', inventories: { VCPU: { total: 8 } } },
  { uuid: 'numa', parent: 'cn3', traits: ['HW_NUMA_ROOT'], inventories: { VCPU: { total: 8 } } },
  { uuid: 'ss', aggregates: ['a'], traits: [SHARES_VIA_AGGREGATE], inventories: { DISK_GB: { total: 100 } } },
]);
const matching = (g: RequestGroup) => {
  const { start, matches } = groupMatcher(index, checkGroup(index, names, g, new Explain())!);
  return [...start].filter(matches).map((n) => n.uuid).sort();
};

describe('groupMatcher (one provider meets the whole group)', () => {
  it('needs every required any-of set on the provider itself', () => {
    expect(matching(group('1', { resources: [['VCPU', 1]], requiredTraits: [['HW_CPU_X86_AVX2']] }))).toEqual(['cn1', 'cn2']);
    expect(matching(group('1', { resources: [['VCPU', 1]], requiredTraits: [['HW_CPU_X86_AVX2'], ['HW_CPU_X86_SSE', 'HW_NUMA_ROOT']] }))).toEqual(['cn1']);
  });

  it('reads member_of and forbidden aggregates on the provider itself, not its root', () => {
    expect(matching(group('1', { resources: [['VCPU', 1]], memberOf: [['a']] }))).toEqual(['cn1', 'cn2']);
    expect(matching(group('1', { resources: [['VCPU', 1]], forbiddenAggregates: ['b'] }))).toEqual(['cn1', 'cn3', 'numa']);
    expect(matching(group('1', { resources: [['VCPU', 1]], forbiddenTraits: ['HW_NUMA_ROOT', 'HW_CPU_X86_SSE'] }))).toEqual(['cn2', 'cn3']);
  });

  it('matches nothing for a resourceless group without a positive filter, as upstream', () => {
    expect(matching(group('1', { forbiddenTraits: ['HW_NUMA_ROOT'] }))).toEqual([]);
    expect(matching(group('1', { requiredTraits: [['HW_NUMA_ROOT']] }))).toEqual(['numa']);
  });
});

describe('singleProviderChoices', () => {
  const choices = (g: RequestGroup, allowed: string[] | null = null) => {
    const ctx = resolveGroup(index, names, g, new Explain())!;
    const roots = allowed ? new Set(allowed.map((u) => index.get(u)!)) : null;
    const found = singleProviderChoices(index, ctx, roots, new SharingAnchors(index));
    return Object.fromEntries([...found.anchors()].map((anchor) => [anchor.uuid, found.at(anchor)![0].map((n) => n.uuid)]));
  };

  it('anchors a provider to its root, and a sharing provider also to every root of its aggregates', () => {
    expect(choices(group('1', { resources: [['VCPU', 1]] }))).toEqual({ cn1: ['cn1'], cn2: ['cn2'], cn3: ['cn3', 'numa'] });
    expect(choices(group('1', { resources: [['DISK_GB', 1]] }))).toEqual({ ss: ['ss'], cn1: ['ss'], cn2: ['ss'] });
  });

  it('finds anchors in the order the starting set meets them; lists a tree parents first, then what is lent to it', () => {
    // VCPU joins the index in the order y, ss, x; the tree lists x before y.
    const order = indexOf([
      { uuid: 'r', aggregates: ['a'] }, { uuid: 'x', parent: 'r' }, { uuid: 'y', parent: 'r', inventories: { VCPU: { total: 1 } } },
      { uuid: 'ss', aggregates: ['a'], traits: [SHARES_VIA_AGGREGATE], inventories: { VCPU: { total: 1 } } },
      { uuid: 'r2', inventories: { VCPU: { total: 1 } } },
    ]);
    order.put('x', { ...order.get('x')!.state, inventories: order.get('y')!.state.inventories });
    const found = singleProviderChoices(order, checkGroup(order, names, group('1', { resources: [['VCPU', 1]] }), new Explain())!, null,
      new SharingAnchors(order));
    expect([...found.anchors()].map((anchor) => `${anchor.uuid}:${found.at(anchor)![0].map((n) => n.uuid)}`)).toEqual(['r:x,y,ss', 'ss:ss', 'r2:r2']);
  });

  it('has no choice at an anchor the group cannot use', () => {
    const found = singleProviderChoices(index, checkGroup(index, names, group('1', { resources: [['DISK_GB', 1]] }), new Explain())!,
      new Set([index.get('cn2')!]), new SharingAnchors(index));
    expect(['cn1', 'cn2', 'cn3'].map((uuid) => found.at(index.get(uuid)!)?.[0].map((n) => n.uuid) ?? null)).toEqual([null, ['ss'], null]);
  });

  it('counts every provider of the starting set for the explain endpoint', () => {
    const explain = new Explain();
    countSingleProviderChoices(index, checkGroup(index, names, group('1', { resources: [['VCPU', 1]], requiredTraits: [['HW_CPU_X86_AVX2']] }), explain)!,
      null, new SharingAnchors(index), explain);
    expect(explain.steps.slice(-3).map((s) => s.count)).toEqual([2, 2, 2]);
    const disk = new Explain();
    countSingleProviderChoices(index, checkGroup(index, names, group('1', { resources: [['DISK_GB', 1]] }), disk)!, null, new SharingAnchors(index), disk);
    expect(disk.steps.map((s) => `${s.step}=${s.count}`)).toEqual([
      "group '1': providers examined=1", "group '1': providers meeting the whole group=1", "group '1': anchors=3",
    ]);
  });

  it('drops anchors root_required refused', () => {
    expect(choices(group('1', { resources: [['DISK_GB', 1]] }), ['cn2'])).toEqual({ cn2: ['ss'] });
  });
});
