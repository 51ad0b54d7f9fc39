import { ActiveProvider } from '#domain/index.js';
import { seededRandom } from '#test/support/seeded-random.js';
import { NameCatalog } from '../index/name-catalog.js';
import { activeProvider, indexOf, PlainProvider } from '../index/plain-index.js';
import { ProviderIndex, SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { CandidateRequest, SearchOptions } from '../request.js';
import { Candidate } from './candidate.js';
import { candidateRequest, group } from './request-builder.js';
import { CandidateResult, searchCandidates } from './search.js';
import { TreeAnswers } from './tree-answers.js';

const names = new NameCatalog();
names.addTrait('CUSTOM_FOO');
const OPTIONS: SearchOptions = { randomize: false, maxCandidates: null };

/** A candidate as text: who gives what, and which providers met which group. */
const text = (c: Candidate) => `${c.allocations.map((a) => `${a.provider.uuid}:${a.resources.map(([rc, n]) => `${rc}=${n}`).join(',')}`).join(' ')}`
  + ` | ${c.mappings.map(([s, nodes]) => `${s}=${nodes.map((n) => n.uuid).join('+')}`).join(' ')}`;
const seen = (result: CandidateResult) => ({ candidates: result.candidates.map(text), summaries: result.summaries.map((n) => n.uuid) });

/** perfload-nested's tree: a compute node, two NUMA nodes with FPGAs, one with a vGPU. */
function nestedTree(i: number): PlainProvider[] {
  return [
    { uuid: `cn${i}`, inventories: { DISK_GB: { total: 100 } }, traits: ['COMPUTE_VOLUME_MULTI_ATTACH'], aggregates: [i % 2 ? 'odd' : 'even'] },
    { uuid: `numa${i}_0`, parent: `cn${i}`, inventories: { VCPU: { total: 4 }, MEMORY_MB: { total: 2048, step_size: 256 } }, traits: ['HW_NUMA_ROOT'] },
    { uuid: `fpga${i}_0`, parent: `numa${i}_0`, inventories: { FPGA: { total: 1 } } },
    { uuid: `pgpu${i}_0`, parent: `numa${i}_0`, inventories: { VGPU: { total: 8 } } },
    { uuid: `numa${i}_1`, parent: `cn${i}`, inventories: { VCPU: { total: 4 }, MEMORY_MB: { total: 2048 } }, traits: ['HW_NUMA_ROOT', 'CUSTOM_FOO'] },
    { uuid: `fpga${i}_1a`, parent: `numa${i}_1`, inventories: { FPGA: { total: 1 } } },
    { uuid: `fpga${i}_1b`, parent: `numa${i}_1`, inventories: { FPGA: { total: 1 } } },
  ];
}

/** Requests of several forms: perfload-nested's, granular groups, isolate, root_required, member_of, below 1.29. */
const REQUESTS: Record<string, CandidateRequest> = {
  perfload: candidateRequest([
    group('', { resources: [['DISK_GB', 10]], requiredTraits: [['COMPUTE_VOLUME_MULTI_ATTACH']] }),
    group('_COMPUTE', { resources: [['VCPU', 1], ['MEMORY_MB', 256]], requiredTraits: [['CUSTOM_FOO']] }),
    group('_FPGA', { resources: [['FPGA', 1]] }),
  ], { groupPolicy: 'none', sameSubtrees: [['_COMPUTE', '_FPGA']] }),
  spread: candidateRequest([group('', { resources: [['VCPU', 2], ['MEMORY_MB', 512], ['DISK_GB', 5]] })]),
  isolate: candidateRequest([group('1', { resources: [['FPGA', 1]] }), group('2', { resources: [['FPGA', 1]] })], { groupPolicy: 'isolate' }),
  rooted: candidateRequest([group('', { resources: [['VGPU', 2]] }), group('1', { resources: [['VCPU', 1]] })],
    { groupPolicy: 'none', rootRequired: ['COMPUTE_VOLUME_MULTI_ATTACH'] }),
  member: candidateRequest([group('', { resources: [['VCPU', 1], ['FPGA', 1]], memberOf: [['odd']] })]),
  old: candidateRequest([group('', { resources: [['VCPU', 1], ['DISK_GB', 1]] })], { nestedAware: false }),
};

type Change = (index: ProviderIndex, random: ReturnType<typeof seededRandom>) => void;
const some = (index: ProviderIndex, random: ReturnType<typeof seededRandom>) => random.pick([...index.roots()].flatMap((r) => index.tree(r)));
const put = (index: ProviderIndex, state: ActiveProvider, changes: Partial<ActiveProvider>) => index.put(state.uuid, { ...state, ...changes });

/** The writes a cloud makes: usage (claims), inventory, traits, aggregates, moves, providers coming and going. */
const CHANGES: Change[] = [
  (index, random) => {
    const { state } = some(index, random);
    const rc = Object.keys(state.inventories)[0];
    if (rc) put(index, state, { usages: { ...state.usages, [rc]: random.int(state.inventories[rc].total + 1) } });
  },
  (index, random) => {
    const { state } = some(index, random);
    put(index, state, { inventories: { ...state.inventories, FPGA: activeProvider({ uuid: 'x', inventories: { FPGA: { total: random.int(3) } } }).inventories.FPGA } });
  },
  (index, random) => {
    const { state } = some(index, random);
    put(index, state, { traits: state.traits.includes('CUSTOM_FOO') ? state.traits.filter((t) => t !== 'CUSTOM_FOO') : [...state.traits, 'CUSTOM_FOO'] });
  },
  (index, random) => {
    const { state } = some(index, random);
    put(index, state, { aggregates: state.aggregates.length > 0 ? [] : [random.pick(['odd', 'even'])] });
  },
  (index, random) => {
    // A provider moves under another tree's root (or becomes a root).
    const node = some(index, random);
    const target = random.pick(index.roots());
    if (target.root === node.root) put(index, node.state, { parentUuid: null });
    else put(index, node.state, { parentUuid: target.uuid });
  },
  (index, random) => {
    const node = some(index, random);
    if (node.children.length === 0) index.put(node.uuid, { status: 'deleted', uuid: node.uuid });
  },
  (index, random) => {
    const parent = some(index, random);
    const uuid = `new${random.int(1e9)}`;
    index.put(uuid, activeProvider({ uuid, parent: parent.uuid, inventories: { FPGA: { total: 1 }, VCPU: { total: 2 } } }));
  },
];

describe('answers kept per tree (TreeAnswers)', () => {
  it('gives exactly what a search without them gives, after every kind of write, with and without a limit', () => {
    const random = seededRandom(20261127);
    const index = indexOf(Array.from({ length: 12 }, (_v, i) => nestedTree(i)).flat());
    // One store per request and limit: a root keeps one request's part, so each keeps its own across the writes.
    const stores = new Map<string, TreeAnswers>();
    const before = new Map<string, Set<unknown>>();
    let reused = 0;
    for (let step = 0; step < 300; step++) {
      random.pick(CHANGES)(index, random);
      for (const [name, request] of Object.entries(REQUESTS)) {
        for (const limit of [null, 1 + (step % 20)]) {
          const asked = { ...request, limit };
          const slot = `${name} ${limit === null ? 'all' : 'limited'}`;
          if (!stores.has(slot)) stores.set(slot, new TreeAnswers());
          const kept = searchCandidates(index, names, asked, OPTIONS, stores.get(slot));
          const fresh = searchCandidates(index, names, asked, OPTIONS);
          expect({ name, limit, ...seen(kept) }).toEqual({ name, limit, ...seen(fresh) });
          const parts = new Set(kept.trees?.map((slice) => slice.part));
          reused += [...parts].filter((part) => part && before.get(slot)?.has(part)).length;
          before.set(slot, new Set([...(before.get(slot) ?? []), ...parts]));
        }
      }
    }
    // The kept parts were really used, not rebuilt each time.
    expect(reused).toBeGreaterThan(1000);
  });

  it('reuses the candidates of trees nobody wrote to and searches anew the one a claim changed', () => {
    const index = indexOf([...nestedTree(0), ...nestedTree(1)]);
    const answers = new TreeAnswers();
    const request = REQUESTS.perfload;
    const first = searchCandidates(index, names, request, OPTIONS, answers);
    const numa = index.get('numa1_1')!;
    put(index, numa.state, { usages: { VCPU: 1 } });
    const second = searchCandidates(index, names, request, OPTIONS, answers);
    expect(second.candidates.slice(0, 2)).toEqual(first.candidates.slice(0, 2));
    expect(second.candidates[0]).toBe(first.candidates[0]);
    expect(second.candidates[2]).not.toBe(first.candidates[2]);
    expect(second.trees!.map((s) => s.root.uuid)).toEqual(['cn0', 'cn1']);
  });

  it('is not used where sharing providers lend across trees, for the explain counts or for a shuffled answer', () => {
    const answers = new TreeAnswers();
    const lent = indexOf([...nestedTree(0), { uuid: 'ss', inventories: { DISK_GB: { total: 1000 } }, traits: [SHARES_VIA_AGGREGATE], aggregates: ['even'] }]);
    expect(searchCandidates(lent, names, REQUESTS.perfload, OPTIONS, answers).trees).toBeUndefined();
    const index = indexOf(nestedTree(0));
    expect(searchCandidates(index, names, REQUESTS.perfload, { ...OPTIONS, countEveryStep: true }, answers).trees).toBeUndefined();
    expect(searchCandidates(index, names, REQUESTS.perfload, { ...OPTIONS, randomize: true }, answers).trees).toBeUndefined();
    expect(searchCandidates(index, names, REQUESTS.perfload, OPTIONS, answers).trees).toHaveLength(1);
  });
});
