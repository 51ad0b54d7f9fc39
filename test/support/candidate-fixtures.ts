import { ActiveProvider } from '#domain/index.js';
import { activeProvider, PlainProvider } from '#placement/candidates/index/plain-index.js';
import { NameCatalog } from '#placement/candidates/index/name-catalog.js';
import { ProviderIndex, ProviderNode } from '#placement/candidates/index/provider-index.js';
import { CandidateRequest } from '#placement/candidates/request.js';
import { Candidate } from '#placement/candidates/search/candidate.js';
import { candidateRequest, group } from '#placement/candidates/search/request-builder.js';
import { CandidateResult } from '#placement/candidates/search/search.js';
import { seededRandom } from './seeded-random.js';

type Random = ReturnType<typeof seededRandom>;

/** perfload-nested's tree: a compute node, two NUMA nodes with FPGAs, one with a vGPU. */
export function nestedTree(i: number): PlainProvider[] {
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

/** A candidate as text: who gives what, and which providers met which group. */
const text = (c: Candidate) => `${c.allocations.map((a) => `${a.provider.uuid}:${a.resources.map(([rc, n]) => `${rc}=${n}`).join(',')}`).join(' ')}`
  + ` | ${c.mappings.map(([s, nodes]) => `${s}=${nodes.map((n) => n.uuid).join('+')}`).join(' ')}`;
export const seen = (result: CandidateResult) => ({ candidates: result.candidates.map(text), summaries: result.summaries.map((n) => n.uuid) });

/** Requests of several forms: perfload-nested's, granular groups, isolate, root_required, member_of, below 1.29. */
export const REQUESTS: Record<string, CandidateRequest> = {
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

export type IndexWrite = (index: ProviderIndex, random: Random) => void;

/** Any provider of the index. */
export const someProvider = (index: ProviderIndex, random: Random): ProviderNode => random.pick([...index.roots()].flatMap((r) => index.tree(r)));

/** The provider's state with `changes`, as a write to it leaves it. */
export const putChanged = (index: ProviderIndex, state: ActiveProvider, changes: Partial<ActiveProvider>) => index.put(state.uuid, { ...state, ...changes });

/** The writes a cloud makes: usage (claims), inventory, traits, aggregates, moves, providers coming and going. */
export const INDEX_WRITES: IndexWrite[] = [
  (index, random) => {
    const { state } = someProvider(index, random);
    const rc = Object.keys(state.inventories)[0];
    if (rc) putChanged(index, state, { usages: { ...state.usages, [rc]: random.int(state.inventories[rc].total + 1) } });
  },
  (index, random) => {
    const { state } = someProvider(index, random);
    putChanged(index, state, { inventories: { ...state.inventories, FPGA: activeProvider({ uuid: 'x', inventories: { FPGA: { total: random.int(3) } } }).inventories.FPGA } });
  },
  (index, random) => {
    const { state } = someProvider(index, random);
    putChanged(index, state, { traits: state.traits.includes('CUSTOM_FOO') ? state.traits.filter((t) => t !== 'CUSTOM_FOO') : [...state.traits, 'CUSTOM_FOO'] });
  },
  (index, random) => {
    const { state } = someProvider(index, random);
    putChanged(index, state, { aggregates: state.aggregates.length > 0 ? [] : [random.pick(['odd', 'even'])] });
  },
  (index, random) => {
    // A provider moves under another tree's root (or becomes a root).
    const node = someProvider(index, random);
    const target = random.pick(index.roots());
    if (target.root === node.root) putChanged(index, node.state, { parentUuid: null });
    else putChanged(index, node.state, { parentUuid: target.uuid });
  },
  (index, random) => {
    const node = someProvider(index, random);
    if (node.children.length === 0) index.put(node.uuid, { status: 'deleted', uuid: node.uuid });
  },
  (index, random) => {
    const parent = someProvider(index, random);
    const uuid = `new${random.int(1e9)}`;
    index.put(uuid, activeProvider({ uuid, parent: parent.uuid, inventories: { FPGA: { total: 1 }, VCPU: { total: 2 } } }));
  },
];

/** A flat cloud as placeload makes it, small: every provider a compute node; a third each with one of two traits or an aggregate. */
export function flatCloud(count: number): PlainProvider[] {
  return Array.from({ length: count }, (_v, i): PlainProvider => ({
    uuid: `c${String(i).padStart(4, '0')}`,
    inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 4096, step_size: 256 }, DISK_GB: { total: 100 } },
    traits: i % 3 === 0 ? ['HW_CPU_X86_AVX2'] : i % 3 === 1 ? ['CUSTOM_FOO'] : [],
    aggregates: i % 3 === 2 ? ['a1'] : [],
  }));
}

/** The name catalog of flatCloud's traits, so that FLAT_REQUESTS may name them. */
export function flatCatalog(): NameCatalog {
  const names = new NameCatalog();
  for (const trait of ['HW_CPU_X86_AVX2', 'CUSTOM_FOO']) names.addTrait(trait);
  return names;
}

/** The flat scheduler's questions: a storm's flavors, with a required or forbidden trait, member_of, root_required. */
export const FLAT_REQUESTS: Record<string, CandidateRequest> = {
  small: candidateRequest([group('', { resources: [['VCPU', 1], ['MEMORY_MB', 512], ['DISK_GB', 5]] })], { rootForbidden: ['CUSTOM_FOO'] }),
  large: candidateRequest([group('', { resources: [['VCPU', 4], ['MEMORY_MB', 2048], ['DISK_GB', 40]] })]),
  avx: candidateRequest([group('', { resources: [['VCPU', 2], ['MEMORY_MB', 1024]], requiredTraits: [['HW_CPU_X86_AVX2']] })]),
  notFoo: candidateRequest([group('', { resources: [['VCPU', 1], ['DISK_GB', 10]], forbiddenTraits: ['CUSTOM_FOO'] })]),
  member: candidateRequest([group('', { resources: [['MEMORY_MB', 1024]], memberOf: [['a1']] })]),
  granular: candidateRequest([group('_G', { resources: [['VCPU', 1]] })]),
};

/**
 * A flat cloud's writes, claims most often: usage up (a claim) or down (a deletion), an
 * inventory resized, a class added, a trait or an aggregate changed, a provider coming or going.
 */
export const FLAT_WRITES: IndexWrite[] = [
  ...Array.from({ length: 6 }, (): IndexWrite => (index, random) => {
    const { state } = someProvider(index, random);
    const rc = random.pick(Object.keys(state.inventories));
    if (rc) putChanged(index, state, { usages: { ...state.usages, [rc]: Math.min(state.inventories[rc].total, (state.usages[rc] ?? 0) + 1 + random.int(3)) } });
  }),
  (index, random) => {
    const { state } = someProvider(index, random);
    const rc = random.pick(Object.keys(state.inventories));
    if (rc) putChanged(index, state, { usages: { ...state.usages, [rc]: random.int((state.usages[rc] ?? 0) + 1) } });
  },
  (index, random) => {
    const { state } = someProvider(index, random);
    const vcpu = state.inventories.VCPU;
    if (vcpu) putChanged(index, state, { inventories: { ...state.inventories, VCPU: { ...vcpu, total: 1 + random.int(16) } } });
  },
  (index, random) => {
    const { state } = someProvider(index, random);
    putChanged(index, state, { inventories: { ...state.inventories, FPGA: activeProvider({ uuid: 'x', inventories: { FPGA: { total: 1 } } }).inventories.FPGA } });
  },
  (index, random) => {
    const { state } = someProvider(index, random);
    putChanged(index, state, { traits: state.traits.includes('CUSTOM_FOO') ? state.traits.filter((t) => t !== 'CUSTOM_FOO') : [...state.traits, 'CUSTOM_FOO'] });
  },
  (index, random) => {
    const { state } = someProvider(index, random);
    putChanged(index, state, { aggregates: state.aggregates.length > 0 ? [] : ['a1'] });
  },
  (index, random) => {
    const node = someProvider(index, random);
    if (random.int(2) === 0) index.put(node.uuid, { status: 'deleted', uuid: node.uuid });
    else {
      const uuid = `n${random.int(1e9)}`;
      index.put(uuid, activeProvider({ uuid, inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 4096 }, DISK_GB: { total: 100 } } }));
    }
  },
];

/** Computes of the flat cloud with children holding what flavors do not ask: PCI devices, vGPUs, a port's bandwidth. */
export function deviceChildren(count: number): PlainProvider[] {
  return Array.from({ length: count }, (_v, i) => i).flatMap((i): PlainProvider[] => {
    const root = `c${String(i).padStart(4, '0')}`;
    if (i % 4 === 0) return [0, 1, 2].map((d) => ({ uuid: `${root}-pci${d}`, parent: root, inventories: { PCI_DEVICE: { total: 1 } }, traits: ['CUSTOM_FOO'] }));
    if (i % 4 === 1) return [{ uuid: `${root}-gpu`, parent: root, inventories: { VGPU: { total: 4 } } }];
    if (i % 4 === 2) return [{ uuid: `${root}-agent`, parent: root }, { uuid: `${root}-port`, parent: `${root}-agent`, inventories: { NET_BW_EGR_KILOBIT_PER_SEC: { total: 10000 } } }];
    return [];
  });
}

/** Writes to the children too: a device claimed or freed, and now and then a class the flavors ask given to a child and taken back. */
export const DEVICE_WRITES: IndexWrite[] = [
  ...FLAT_WRITES,
  (index, random) => {
    const { state } = someProvider(index, random);
    const rc = Object.keys(state.inventories).find((name) => ['PCI_DEVICE', 'VGPU', 'NET_BW_EGR_KILOBIT_PER_SEC'].includes(name));
    if (rc) putChanged(index, state, { usages: { ...state.usages, [rc]: random.int(state.inventories[rc].total + 1) } });
  },
  (index, random) => {
    const node = someProvider(index, random);
    if (!node.parent) return;
    const { VCPU, ...others } = node.state.inventories;
    putChanged(index, node.state, { inventories: VCPU ? others : { ...others, VCPU: activeProvider({ uuid: 'x', inventories: { VCPU: { total: 4 } } }).inventories.VCPU } });
  },
];
