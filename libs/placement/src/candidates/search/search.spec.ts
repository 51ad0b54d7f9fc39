import { NameCatalog } from '../index/name-catalog.js';
import { indexOf, PlainProvider } from '../index/plain-index.js';
import { candidateRequest, group } from './request-builder.js';
import { searchCandidates } from './search.js';
import { Candidate } from './combine.js';
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
