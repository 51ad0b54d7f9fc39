import { NameCatalog } from '../index/name-catalog.js';
import { indexOf, PlainProvider } from '../index/plain-index.js';
import { ProviderNode } from '../index/provider-index.js';
import { Candidate, Combiner } from './combine.js';
import { Explain } from './explain.js';
import { GroupChoices } from './group-choices.js';
import { inSameSubtree } from './same-subtree.js';
import { candidateRequest, group } from './request-builder.js';
import { searchCandidates, searchSteps } from './search.js';
import { CandidateRequest } from '../request.js';
import { runToEnd } from './steps.js';
import { seededRandom } from '#test/support/seeded-random.js';

const names = new NameCatalog();
const OPTIONS = { randomize: false, maxCandidates: null };
const search = (providers: PlainProvider[], request: CandidateRequest, maxCandidates: number | null = null) =>
  searchCandidates(indexOf(providers), names, request, { randomize: false, maxCandidates });
const shape = (c: Candidate) => c.allocations.flatMap((a) => a.resources.map(([rc, n]) => `${a.provider.uuid}:${rc}=${n}`)).sort().join(' ');
const mapping = (c: Candidate) => c.mappings.map(([s, nodes]) => `${s}=${nodes.map((n) => n.uuid).join('+')}`).join(' ');
const tried = (explain: readonly { step: string; count: number }[]) => explain.find((s) => s.step === 'combinations tried')!.count;

/** One root with `width` children of `units` PCI_DEVICE each: the wide tree of perfload-shapes.md. */
const wide = (width: number, units = 1): PlainProvider[] => [
  { uuid: 'root' },
  ...Array.from({ length: width }, (_v, i) => ({ uuid: `pci${i}`, parent: 'root', inventories: { PCI_DEVICE: { total: units } } })),
];
const groups = (count: number, amount = 1) => Array.from({ length: count }, (_v, i) => group(`${i + 1}`, { resources: [['PCI_DEVICE', amount]] }));

describe('the combination of request groups', () => {
  const twoNuma: PlainProvider[] = [
    { uuid: 'cn' },
    { uuid: 'numa0', parent: 'cn', inventories: { VCPU: { total: 4 }, MEMORY_MB: { total: 2048 } } },
    { uuid: 'numa1', parent: 'cn', inventories: { VCPU: { total: 4 }, MEMORY_MB: { total: 2048 } } },
  ];
  const vcpuAndMemory = [group('1', { resources: [['VCPU', 1]] }), group('2', { resources: [['MEMORY_MB', 1024]] })];

  it('lets granular groups share a provider under group_policy=none, never under isolate', () => {
    const none = search(twoNuma, candidateRequest(vcpuAndMemory, { groupPolicy: 'none' }));
    expect(none.candidates.map(mapping).sort()).toEqual(['1=numa0 2=numa0', '1=numa0 2=numa1', '1=numa1 2=numa0', '1=numa1 2=numa1']);
    const isolate = search(twoNuma, candidateRequest(vcpuAndMemory, { groupPolicy: 'isolate' }));
    expect(isolate.candidates.map(mapping).sort()).toEqual(['1=numa0 2=numa1', '1=numa1 2=numa0']);
  });

  it('adds up groups taking the same class from one provider and checks the sum against capacity and max_unit', () => {
    const request = (amount: number) => candidateRequest([group('1', { resources: [['VCPU', amount]] }), group('2', { resources: [['VCPU', amount]] })], { groupPolicy: 'none' });
    const both = search(twoNuma, request(2));
    expect(both.candidates.map(shape).sort()).toEqual(['numa0:VCPU=2 numa1:VCPU=2', 'numa0:VCPU=2 numa1:VCPU=2', 'numa0:VCPU=4', 'numa1:VCPU=4']);
    expect(search(twoNuma, request(3)).candidates.map(shape).sort()).toEqual(['numa0:VCPU=3 numa1:VCPU=3', 'numa0:VCPU=3 numa1:VCPU=3']);
    const capped: PlainProvider[] = [{ uuid: 'p', inventories: { VCPU: { total: 8, max_unit: 3 } } }];
    expect(search(capped, request(2)).candidates).toHaveLength(0);
  });

  it('keeps same_subtree groups under one of their own providers', () => {
    const tree: PlainProvider[] = [
      { uuid: 'cn' },
      { uuid: 'numa0', parent: 'cn', inventories: { VCPU: { total: 4 } } },
      { uuid: 'fpga0', parent: 'numa0', inventories: { FPGA: { total: 1 } } },
      { uuid: 'numa1', parent: 'cn', inventories: { VCPU: { total: 4 } } },
      { uuid: 'fpga1', parent: 'numa1', inventories: { FPGA: { total: 1 } } },
    ];
    const request = candidateRequest([group('_C', { resources: [['VCPU', 1]] }), group('_F', { resources: [['FPGA', 1]] })],
      { groupPolicy: 'none', sameSubtrees: [['_C', '_F']] });
    expect(search(tree, request).candidates.map(mapping).sort()).toEqual(['_C=numa0 _F=fpga0', '_C=numa1 _F=fpga1']);
    const nodes = indexOf(tree);
    expect(inSameSubtree(new Set(['cn', 'fpga1', 'numa0'].map((u) => nodes.get(u)!)))).toBe(true);
    expect(inSameSubtree(new Set(['fpga0', 'fpga1'].map((u) => nodes.get(u)!)))).toBe(false);
  });

  it('maps every group to its providers, the unsuffixed one to all it takes from', () => {
    const tree: PlainProvider[] = [
      { uuid: 'cn', inventories: { DISK_GB: { total: 10 } } },
      { uuid: 'numa', parent: 'cn', inventories: { VCPU: { total: 4 } } },
    ];
    const result = search(tree, candidateRequest([group('', { resources: [['VCPU', 1], ['DISK_GB', 1]] }), group('_X', { resources: [['VCPU', 1]] })]));
    expect(result.candidates.map(mapping)).toEqual(['=numa+cn _X=numa']);
    expect(result.candidates.map(shape)).toEqual(['cn:DISK_GB=1 numa:VCPU=2']);
  });
});

describe('the wide tree: pruning and the cap', () => {
  it('finds the 8! candidates of 8 groups over 8 one-unit children without walking 8^8 combinations', () => {
    const started = Date.now();
    const result = search(wide(8), candidateRequest(groups(8), { groupPolicy: 'none' }));
    expect(result.candidates).toHaveLength(40320);
    // Every valid prefix of k picks tries 8 children: sum over k of 8!/(8-k)! * 8, not 8^8.
    expect(tried(result.explain)).toBe(554248);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops generating at limit, and at the configured cap, in milliseconds', () => {
    const started = Date.now();
    const limited = search(wide(8), candidateRequest(groups(8), { groupPolicy: 'isolate', limit: 50 }));
    expect(limited.candidates).toHaveLength(50);
    expect(tried(limited.explain)).toBeLessThan(50 * 64);
    const capped = search(wide(8), candidateRequest(groups(8), { groupPolicy: 'isolate' }), 1000);
    expect(capped.candidates).toHaveLength(1000);
    expect(Date.now() - started).toBeLessThan(500);
    expect(new Set(capped.candidates.map(mapping)).size).toBe(1000);
  });

  it('drops a tree at once when the groups need more than it can still give', () => {
    const result = search(wide(8), candidateRequest(groups(9), { groupPolicy: 'none' }));
    expect(result.candidates).toHaveLength(0);
    expect(tried(result.explain)).toBe(0);
    const twoUnits = search(wide(8, 2), candidateRequest(groups(3, 3), { groupPolicy: 'none' }));
    expect(twoUnits.candidates).toHaveLength(0);
  });

  it('refuses an answer without a cap, before walking a tree sure to give more than the ceiling; walks one that is not', () => {
    const steps = (width: number, request: CandidateRequest) => searchSteps(indexOf(wide(width)), names, request, OPTIONS);
    // 10! candidates under either policy: refused with no step taken, where generating past the ceiling took a hundred thousand.
    for (const groupPolicy of ['isolate', 'none'] as const) {
      const tenByTen = steps(10, candidateRequest(groups(10), { groupPolicy }));
      expect(() => tenByTen.next()).toThrow(/would give more than 100000 allocation candidates/);
    }
    // 8! fit under the ceiling: all generated.
    expect(runToEnd(steps(8, candidateRequest(groups(8), { groupPolicy: 'isolate' }))).candidates).toHaveLength(40320);
    // The unsuffixed group spread over the tree has a say in what a candidate is, so nothing is sure before generating: refused once past the ceiling.
    const spread = steps(10, candidateRequest([group('', { resources: [['PCI_DEVICE', 1]] }), ...groups(9)], { groupPolicy: 'none' }));
    let pauses = 0;
    expect(() => {
      while (!spread.next().done) pauses++;
    }).toThrow(/would give more than 100000 allocation candidates/);
    expect(pauses).toBeGreaterThan(100);
  });

  it('is sure a tree passes the ceiling only where it does, under either policy, whatever the devices\' units and the groups\' amounts', () => {
    const random = seededRandom(20261130);
    let sure = 0;
    for (let trial = 0; trial < 300; trial++) {
      const devices = Array.from({ length: 2 + random.int(6) }, (_v, i) => ({ uuid: `d${i}`, parent: 'root', inventories: { PCI_DEVICE: { total: 1 + random.int(3) } } }));
      const tree = indexOf([{ uuid: 'root' }, ...devices]);
      const root = tree.get('root')!;
      const asked = Array.from({ length: 1 + random.int(5) }, (_v, i) => group(`${i + 1}`, { resources: [['PCI_DEVICE', 1 + random.int(2)]] }));
      const request = candidateRequest(asked, { groupPolicy: random.pick(['none', 'isolate'] as const) });
      const plans = asked.map((g) => {
        const able = root.children.filter((child) => child.rooms.get('PCI_DEVICE')!.free >= g.resources[0][1]);
        const choices: GroupChoices = { anchors: () => [root], at: (anchor) => (anchor === root && able.length > 0 ? [[...able]] : null) };
        return { ctx: { group: g, label: g.suffix, granular: true, inAggregates: null, treeRoot: null }, choices, multi: false };
      });
      const combine = (ceiling?: number) => {
        const combiner = new Combiner(plans, request, { cap: ceiling === undefined ? null : ceiling + 1, excludeNested: false, shuffle: null, ceiling });
        const candidates = runToEnd(combiner.run(new Explain()));
        return { candidates: candidates.map(mapping), beyond: combiner.beyondCeiling };
      };
      const all = combine().candidates;
      for (const ceiling of [0, 1, 2, 5, 10, 30]) {
        const capped = combine(ceiling);
        if (capped.beyond) sure++;
        // Sure only where more are: else generation goes on and gives the first of them.
        expect({ trial, ceiling, beyond: capped.beyond && all.length > ceiling }).toEqual({ trial, ceiling, beyond: capped.beyond });
        if (!capped.beyond) expect(capped.candidates).toEqual(all.slice(0, ceiling + 1));
      }
    }
    expect(sure).toBeGreaterThan(100);
  });

  it('below 1.29 refuses two providers of one tree in a candidate', () => {
    expect(search(wide(8), candidateRequest(groups(2), { groupPolicy: 'isolate', nestedAware: false })).candidates).toHaveLength(0);
    expect(search(wide(8), candidateRequest(groups(1), { nestedAware: false })).candidates).toHaveLength(8);
  });
});

describe('the anchors of a combination', () => {
  /** A group reaching every root, counting how often the combination asks whether it reaches one. */
  const nodes = indexOf(Array.from({ length: 100 }, (_v, i) => ({ uuid: `r${i}`, inventories: { VCPU: { total: 2 } } })));
  const plan = (suffix: string) => {
    const roots = new Set(nodes.roots());
    const choices: GroupChoices & { asked: number } = {
      asked: 0, anchors: () => roots,
      at(anchor) {
        this.asked++;
        return roots.has(anchor) ? [[anchor]] : null;
      },
    };
    const ctx = { group: group(suffix, { resources: [['VCPU', 1]] }), label: suffix, granular: true, inAggregates: null, treeRoot: null };
    return { ctx, choices, multi: false };
  };

  it('are checked against every group only as far as the cap takes the combination', () => {
    const plans = [plan('1'), plan('2')];
    const combiner = new Combiner(plans, candidateRequest(plans.map((p) => p.ctx.group), { groupPolicy: 'none' }), { cap: 3, excludeNested: false, shuffle: null });
    expect(runToEnd(combiner.run(new Explain())).map(mapping)).toEqual(['1=r0 2=r0', '1=r1 2=r1', '1=r2 2=r2']);
    expect(plans[0].choices.asked + plans[1].choices.asked).toBeLessThanOrEqual(2 * 4);
  });

  it('are all checked before a shuffle, so every anchor every group reaches can come first', () => {
    const plans = [plan('1'), plan('2')];
    const first = (items: ProviderNode[]) => [items[items.length - 1], ...items.slice(0, -1)];
    const combiner = new Combiner(plans, candidateRequest(plans.map((p) => p.ctx.group)), { cap: 1, excludeNested: false, shuffle: first as never });
    expect(runToEnd(combiner.run(new Explain())).map(mapping)).toEqual(['1=r99 2=r99']);
  });
});
