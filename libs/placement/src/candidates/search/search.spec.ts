import { NameCatalog } from '../index/name-catalog.js';
import { indexOf, PlainProvider } from '../index/plain-index.js';
import { candidateRequest, group } from './request-builder.js';
import { searchCandidates } from './search.js';
import { Candidate } from './combine.js';
import type { CandidateResult } from './search.js';
import { CandidateRequest } from '../request.js';

const SHARES = 'MISC_SHARES_VIA_AGGREGATE';
const AGG = 'agg';

/** The conformance kit's SharedStorageFixture: two compute trees and two sharing disks. */
const sharedStorage: PlainProvider[] = [
  { uuid: 'cn1', aggregates: [AGG], inventories: { VCPU: { total: 24, allocation_ratio: 16 }, MEMORY_MB: { total: 131072, allocation_ratio: 1.5 } }, traits: ['HW_CPU_X86_SSE', 'HW_CPU_X86_SSE2'] },
  { uuid: 'cn2', aggregates: [AGG], inventories: { VCPU: { total: 24, allocation_ratio: 16 }, MEMORY_MB: { total: 131072, allocation_ratio: 1.5 }, DISK_GB: { total: 2000, reserved: 100 } } },
  { uuid: 'ss', aggregates: [AGG], inventories: { DISK_GB: { total: 2000, reserved: 100 } }, traits: [SHARES] },
  { uuid: 'ss2', aggregates: [AGG], inventories: { DISK_GB: { total: 2000, reserved: 100 } }, traits: [SHARES] },
  { uuid: 'numa1_1', parent: 'cn1' }, { uuid: 'numa1_2', parent: 'cn1' },
  { uuid: 'numa2_1', parent: 'cn2' }, { uuid: 'numa2_2', parent: 'cn2' },
  { uuid: 'pf1_1', parent: 'numa1_1', inventories: { SRIOV_NET_VF: { total: 8 } } },
  { uuid: 'pf1_2', parent: 'numa1_2', inventories: { SRIOV_NET_VF: { total: 8 } } },
  { uuid: 'pf2_1', parent: 'numa2_1', inventories: { SRIOV_NET_VF: { total: 8 } } },
  { uuid: 'pf2_2', parent: 'numa2_2', inventories: { SRIOV_NET_VF: { total: 8 } } },
];

const names = new NameCatalog();
const run = (providers: PlainProvider[], request: CandidateRequest, randomize = false) =>
  searchCandidates(indexOf(providers), names, request, { randomize, maxCandidates: null });

/** A candidate as 'provider:CLASS=n' entries, sorted, so a whole answer compares as data. */
const shape = (c: Candidate) => c.allocations.flatMap((a) => a.resources.map(([rc, n]) => `${a.provider.uuid}:${rc}=${n}`)).sort().join(' ');
const shapes = (cs: readonly Candidate[]) => cs.map(shape).sort();

describe('searchCandidates over the shared storage deployment', () => {
  it('combines each compute node with each disk it can reach, local or shared', () => {
    const result = run(sharedStorage, candidateRequest([group('', { resources: [['VCPU', 1], ['MEMORY_MB', 1024], ['DISK_GB', 100]] })]));
    expect(shapes(result.candidates)).toEqual([
      'cn1:MEMORY_MB=1024 cn1:VCPU=1 ss2:DISK_GB=100',
      'cn1:MEMORY_MB=1024 cn1:VCPU=1 ss:DISK_GB=100',
      'cn2:DISK_GB=100 cn2:MEMORY_MB=1024 cn2:VCPU=1',
      'cn2:MEMORY_MB=1024 cn2:VCPU=1 ss2:DISK_GB=100',
      'cn2:MEMORY_MB=1024 cn2:VCPU=1 ss:DISK_GB=100',
    ]);
    expect(result.summaries.map((p) => p.uuid).sort()).toEqual(
      ['cn1', 'cn2', 'numa1_1', 'numa1_2', 'numa2_1', 'numa2_2', 'pf1_1', 'pf1_2', 'pf2_1', 'pf2_2', 'ss', 'ss2']);
  });

  it('below 1.29 drops candidates taking from two providers of one tree, and summarizes only providers used', () => {
    const old = run(sharedStorage, candidateRequest([group('', { resources: [['DISK_GB', 10], ['SRIOV_NET_VF', 4]] })], { nestedAware: false }));
    expect(old.candidates).toHaveLength(8);
    expect(old.summaries).toHaveLength(6);
    const none = run(sharedStorage, candidateRequest([group('', { resources: [['VCPU', 1], ['SRIOV_NET_VF', 4]] })], { nestedAware: false }));
    expect(none.candidates).toHaveLength(0);
    const nested = run(sharedStorage, candidateRequest([group('', { resources: [['VCPU', 1], ['SRIOV_NET_VF', 4]] })]));
    expect(shapes(nested.candidates)).toEqual(['cn1:VCPU=1 pf1_1:SRIOV_NET_VF=4', 'cn1:VCPU=1 pf1_2:SRIOV_NET_VF=4', 'cn2:VCPU=1 pf2_1:SRIOV_NET_VF=4', 'cn2:VCPU=1 pf2_2:SRIOV_NET_VF=4']);
    expect(nested.summaries).toHaveLength(10);
  });

  it('honours limit while generating and keeps only the summaries of the trees returned', () => {
    const result = run(sharedStorage, candidateRequest([group('', { resources: [['VCPU', 1], ['SRIOV_NET_VF', 4]] })], { limit: 1 }));
    expect(result.candidates).toHaveLength(1);
    expect(result.candidates[0].allocations).toHaveLength(2);
    expect(result.summaries).toHaveLength(5);
    expect(result.explain.find((s) => s.step === 'combinations tried')!.count).toBeLessThanOrEqual(2);
  });

  it('applies required and forbidden traits to the providers the unsuffixed group takes from', () => {
    const required = run(sharedStorage, candidateRequest([group('', { resources: [['VCPU', 1], ['MEMORY_MB', 1024], ['DISK_GB', 100]], requiredTraits: [['HW_CPU_X86_SSE']] })]));
    expect(shapes(required.candidates)).toEqual(['cn1:MEMORY_MB=1024 cn1:VCPU=1 ss2:DISK_GB=100', 'cn1:MEMORY_MB=1024 cn1:VCPU=1 ss:DISK_GB=100']);
    expect(required.summaries.filter((p) => p.parent === null).map((p) => p.uuid).sort()).toEqual(['cn1', 'ss', 'ss2']);
    const forbidden = run(sharedStorage, candidateRequest([group('', { resources: [['VCPU', 1], ['MEMORY_MB', 1024], ['DISK_GB', 100]], forbiddenTraits: ['HW_CPU_X86_SSE'] })]));
    expect(forbidden.candidates).toHaveLength(3);
  });

  it('keeps in_tree resources inside the tree: no sharing provider is asked', () => {
    const inTree = (uuid: string) => run(sharedStorage, candidateRequest([group('', { resources: [['VCPU', 1], ['DISK_GB', 10]], inTree: uuid })])).candidates;
    expect(inTree('cn1')).toHaveLength(0);
    expect(shapes(inTree('cn2'))).toEqual(['cn2:DISK_GB=10 cn2:VCPU=1']);
    expect(inTree('ss')).toHaveLength(0);
    expect(inTree('nowhere')).toHaveLength(0);
  });

  it('lends a sharing provider to every root of its aggregates in a granular group', () => {
    const result = run(sharedStorage, candidateRequest([group('', { resources: [['VCPU', 1]] }), group('1', { resources: [['DISK_GB', 10]], inTree: 'ss' })]));
    expect(shapes(result.candidates)).toEqual(['cn1:VCPU=1 ss:DISK_GB=10', 'cn2:VCPU=1 ss:DISK_GB=10']);
    expect(result.candidates[0].mappings.map(([s, nodes]) => [s, nodes.map((n) => n.uuid)])).toEqual([['', [expect.stringMatching(/^cn/)]], ['1', ['ss']]]);
  });

  it('reports a request of sharing disks alone once, whichever trees it could anchor to', () => {
    const result = run(sharedStorage, candidateRequest([group('1', { resources: [['DISK_GB', 10]], inTree: 'ss' })]));
    expect(shapes(result.candidates)).toEqual(['ss:DISK_GB=10']);
  });

  it('refuses unknown classes and traits with upstream messages, in upstream order', () => {
    expect(() => run(sharedStorage, candidateRequest([group('', { resources: [['MCPU', 1]] })]))).toThrow('Invalid resource class in resources parameter: No such resource class MCPU.');
    expect(() => run(sharedStorage, candidateRequest([group('', { resources: [['VCPU', 1]], requiredTraits: [['BOGUS']] })]))).toThrow('No such trait(s): BOGUS.');
    // An empty earlier group ends the search before the later group's class is checked.
    expect(run(sharedStorage, candidateRequest([group('', { resources: [['VCPU', 100000]] }), group('1', { resources: [['MCPU', 1]] })])).candidates).toEqual([]);
  });

  it('filters anchors with root_required, refusing unknown traits', () => {
    const result = run(sharedStorage, candidateRequest([group('', { resources: [['VCPU', 1]] })], { rootRequired: ['HW_CPU_X86_SSE'] }));
    expect(shapes(result.candidates)).toEqual(['cn1:VCPU=1']);
    expect(run(sharedStorage, candidateRequest([group('', { resources: [['DISK_GB', 1]] })], { rootRequired: [SHARES] })).candidates).toHaveLength(2);
    expect(() => run(sharedStorage, candidateRequest([group('', { resources: [['VCPU', 1]] })], { rootForbidden: ['CUSTOM_NOPE'] }))).toThrow('No such trait(s): CUSTOM_NOPE.');
  });

  it('randomizes the order when asked, still returning every candidate', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const request = candidateRequest([group('', { resources: [['VCPU', 1], ['MEMORY_MB', 1024], ['DISK_GB', 100]] })]);
    const result = searchCandidates(indexOf(sharedStorage), names, request, { randomize: true, maxCandidates: null, random });
    expect(shapes(result.candidates)).toEqual(shapes(run(sharedStorage, request).candidates));
  });
});

describe('searchCandidates over many trees', () => {
  /**
   * perfload-nested's trees in small: a disk on the root, a NUMA node with VCPU, an FPGA under
   * it; the FPGAs join in the opposite order, so the FPGA group finds the trees last to first.
   */
  const trees = (count: number): PlainProvider[] => {
    const ids = Array.from({ length: count }, (_v, i) => i);
    return [
      ...ids.flatMap((i): PlainProvider[] => [{ uuid: `cn${i}`, inventories: { DISK_GB: { total: 100 } } }, { uuid: `numa${i}`, parent: `cn${i}`, inventories: { VCPU: { total: 4 } } }]),
      ...ids.reverse().map((i) => ({ uuid: `fpga${i}`, parent: `numa${i}`, inventories: { FPGA: { total: i % 3 === 0 ? 1 : 2 } } })),
    ];
  };
  const request = (fields = {}) => candidateRequest(
    [group('', { resources: [['DISK_GB', 10]] }), group('_C', { resources: [['VCPU', 1]] }), group('_F', { resources: [['FPGA', 2]] })],
    { groupPolicy: 'none', sameSubtrees: [['_C', '_F']], ...fields },
  );
  const roots = (cs: readonly Candidate[]) => cs.map((c) => c.allocations.find((a) => a.provider.parent === null)!.provider.uuid);
  const step = (result: CandidateResult, name: string) => result.explain.find((s) => s.step === name)?.count;

  it('walks the trees in the first group\'s order, though a later group reaches fewer', () => {
    const all = run(trees(9), request());
    expect(roots(all.candidates)).toEqual(['cn1', 'cn2', 'cn4', 'cn5', 'cn7', 'cn8']);
  });

  it('answers a limit with the first candidates of the whole answer, looking only at the trees it returns', () => {
    const all = run(trees(300), request());
    const limited = run(trees(300), request({ limit: 5 }));
    expect(limited.candidates.map(shape)).toEqual(all.candidates.slice(0, 5).map(shape));
    // cn0 and cn3 have no FPGA to give and are passed over: 5 trees combined, of 300.
    expect(step(limited, 'trees combined')).toBe(5);
    expect(limited.summaries.map((p) => p.uuid)).toEqual(['cn1', 'numa1', 'fpga1', 'cn2', 'numa2', 'fpga2', 'cn4', 'numa4', 'fpga4', 'cn5', 'numa5', 'fpga5', 'cn7', 'numa7', 'fpga7']);
    expect(step(limited, "group '_F': providers meeting the whole group")).toBeUndefined();
  });

  it('counts every group over the whole deployment only for the explain endpoint', () => {
    const counted = searchCandidates(indexOf(trees(300)), names, request({ limit: 5 }), { randomize: false, maxCandidates: null, countEveryStep: true });
    expect(step(counted, "group '_F': providers meeting the whole group")).toBe(200);
    expect(step(counted, "group '': trees left by the trait filters")).toBe(300);
    expect(counted.candidates.map(shape)).toEqual(run(trees(300), request({ limit: 5 })).candidates.map(shape));
  });
});
