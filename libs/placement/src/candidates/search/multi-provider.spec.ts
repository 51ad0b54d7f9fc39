import { NameCatalog } from '../index/name-catalog.js';
import { indexOf, PlainProvider } from '../index/plain-index.js';
import { SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { SharingAnchors } from './anchors.js';
import { Explain } from './explain.js';
import { resolveGroup } from './group-context.js';
import { combinable, countTreeChoices, treeChoices } from './multi-provider.js';
import { group } from './request-builder.js';
import { RequestGroup } from '../request.js';

/** The conformance kit's NUMAAggregateFixture: resourceless roots, VCPU on NUMA children. */
const numaAggregates: PlainProvider[] = [
  { uuid: 'cn1', aggregates: ['A'] }, { uuid: 'cn2', aggregates: ['A', 'B'] },
  { uuid: 'ss1', aggregates: ['A'], traits: [SHARES_VIA_AGGREGATE], inventories: { DISK_GB: { total: 2000, reserved: 100 } } },
  { uuid: 'ss2', aggregates: ['C'], traits: [SHARES_VIA_AGGREGATE], inventories: { DISK_GB: { total: 2000, reserved: 100 } } },
  { uuid: 'numa1_1', parent: 'cn1', aggregates: ['C'], inventories: { VCPU: { total: 24 } } },
  { uuid: 'numa1_2', parent: 'cn1', inventories: { VCPU: { total: 24 } } },
  { uuid: 'numa2_1', parent: 'cn2', inventories: { VCPU: { total: 24 } } },
  { uuid: 'numa2_2', parent: 'cn2', inventories: { VCPU: { total: 24 } } },
];
const index = indexOf(numaAggregates);
const names = new NameCatalog();

const trees = (g: RequestGroup) => {
  const ctx = resolveGroup(index, names, g, new Explain());
  if (!ctx) return {};
  const found = treeChoices(index, ctx, null, new SharingAnchors(index), new Explain());
  return Object.fromEntries([...found.anchors()].flatMap((anchor) => {
    const levels = found.at(anchor);
    return levels ? [[anchor.uuid, levels.map((nodes) => nodes.map((n) => n.uuid).sort())]] : [];
  }));
};
const disk = (fields: Partial<RequestGroup>) => group('', { resources: [['VCPU', 1], ['DISK_GB', 1000]], ...fields });

describe('treeChoices (the unsuffixed group spread over a tree and its sharing providers)', () => {
  it('lends each sharing provider to the roots in its aggregates, itself or a member of the tree', () => {
    expect(trees(disk({}))).toEqual({
      cn1: [['numa1_1', 'numa1_2'], ['ss1', 'ss2']],
      cn2: [['numa2_1', 'numa2_2'], ['ss1']],
    });
  });

  it('holds member_of for a provider or its anchor root (bug 1792503)', () => {
    expect(trees(disk({ memberOf: [['A']] }))).toEqual({ cn1: [['numa1_1', 'numa1_2'], ['ss1']], cn2: [['numa2_1', 'numa2_2'], ['ss1']] });
    expect(trees(disk({ memberOf: [['B']] }))).toEqual({});
    expect(trees(disk({ memberOf: [['C']] }))).toEqual({ cn1: [['numa1_1'], ['ss2']] });
  });

  it('excludes a forbidden aggregate on the provider or on its anchor root', () => {
    expect(trees(disk({ forbiddenAggregates: ['B'] }))).toEqual({ cn1: [['numa1_1', 'numa1_2'], ['ss1', 'ss2']] });
    expect(trees(disk({ forbiddenAggregates: ['C'] }))).toEqual({ cn1: [['numa1_2'], ['ss1']], cn2: [['numa2_1', 'numa2_2'], ['ss1']] });
  });

  it('keeps in_tree resources in the tree: no sharing provider', () => {
    expect(trees(disk({ inTree: 'cn1' }))).toEqual({});
    expect(trees(group('', { resources: [['VCPU', 1]], inTree: 'numa2_2' }))).toEqual({ cn2: [['numa2_1', 'numa2_2']] });
  });

  it('finds trees in the order the last class found them, even when the filters drop the provider that found one first', () => {
    // VCPU joins the index in the order a1, b1, a2: tree a is found first, by a provider outside aggregate A.
    const order = indexOf([
      { uuid: 'a' }, { uuid: 'b' },
      { uuid: 'a1', parent: 'a', inventories: { VCPU: { total: 4 } } },
      { uuid: 'b1', parent: 'b', aggregates: ['A'], inventories: { VCPU: { total: 4 } } },
      { uuid: 'a2', parent: 'a', aggregates: ['A'], inventories: { VCPU: { total: 4 } } },
    ]);
    const g = group('', { resources: [['VCPU', 1]], memberOf: [['A']] });
    const found = treeChoices(order, resolveGroup(order, names, g, new Explain())!, null, new SharingAnchors(order), new Explain());
    expect([...found.anchors()].map((anchor) => `${anchor.uuid}:${found.at(anchor)![0].map((n) => n.uuid)}`)).toEqual(['a:a2', 'b:b1']);
  });

  it('drops providers with a forbidden trait and trees that cannot gather the required traits', () => {
    expect(trees(disk({ forbiddenTraits: [SHARES_VIA_AGGREGATE] }))).toEqual({});
    expect(trees(disk({ requiredTraits: [['HW_NUMA_ROOT']] }))).toEqual({});
  });
});

describe('combinable', () => {
  it('finds one pick per class whose traits together meet every any-of set', () => {
    const local = indexOf([
      { uuid: 'cn', traits: ['CUSTOM_A'], inventories: { VCPU: { total: 1 } } },
      { uuid: 'n1', parent: 'cn', traits: ['CUSTOM_B'], inventories: { MEMORY_MB: { total: 1 } } },
      { uuid: 'n2', parent: 'cn', traits: ['CUSTOM_C'], inventories: { MEMORY_MB: { total: 1 } } },
    ]);
    const catalog = new NameCatalog();
    ['CUSTOM_A', 'CUSTOM_B', 'CUSTOM_C'].forEach((t) => catalog.addTrait(t));
    const levelsFor = (required: string[][]) => {
      const g = group('', { resources: [['VCPU', 1], ['MEMORY_MB', 1]], requiredTraits: required });
      return treeChoices(local, resolveGroup(local, catalog, g, new Explain())!, null, new SharingAnchors(local), new Explain()).at(local.get('cn')!)!;
    };
    expect(combinable(levelsFor([['CUSTOM_A'], ['CUSTOM_C']]), [['CUSTOM_A'], ['CUSTOM_C']])).toBe(true);
    // B and C are both in the tree, but never in one pick: the union prefilter keeps the tree, the search does not.
    expect(combinable(levelsFor([['CUSTOM_B'], ['CUSTOM_C']]), [['CUSTOM_B'], ['CUSTOM_C']])).toBe(false);
  });
});

describe('countTreeChoices (the explain endpoint)', () => {
  const counts = (g: RequestGroup) => {
    const explain = new Explain();
    const ctx = resolveGroup(index, names, g, new Explain())!;
    countTreeChoices(index, ctx, treeChoices(index, ctx, null, new SharingAnchors(index), explain), new SharingAnchors(index), explain);
    return explain.steps.map((s) => `${s.step.replace("group '': ", '')}=${s.count}`);
  };

  it('counts the trees able to give each class so far over the whole deployment, then those the trait filters leave', () => {
    expect(counts(disk({}))).toEqual([
      'trees able to give every class so far (VCPU)=2', 'trees able to give every class so far (DISK_GB)=2', 'trees left by the trait filters=2',
    ]);
    expect(counts(disk({ memberOf: [['C']] }))).toEqual([
      'trees able to give every class so far (VCPU)=1', 'trees able to give every class so far (DISK_GB)=1', 'trees left by the trait filters=1',
    ]);
    expect(counts(disk({ forbiddenTraits: [SHARES_VIA_AGGREGATE] }))).toEqual([
      'trees able to give every class so far (VCPU)=2', 'trees able to give every class so far (DISK_GB)=2', 'trees left by the trait filters=0',
    ]);
  });

  it('stops at the first class no tree can give', () => {
    expect(counts(disk({ memberOf: [['B']] }))).toEqual(['trees able to give every class so far (VCPU)=1', 'trees able to give every class so far (DISK_GB)=0']);
  });
});
