import { A1, A2 } from '../shapes.js';

/**
 * The flavors a boot storm asks for, written as Nova's scheduler turns a flavor into a query
 * (`resources`, granular groups with their traits, `member_of`, `group_policy`, `same_subtree`),
 * and the mix a seeded storm draws from.
 */
export interface Group {
  readonly resources: Readonly<Record<string, number>>;
  /** Trait names; a leading `!` forbids. */
  readonly required?: readonly string[];
}

export interface Flavor {
  readonly name: string;
  /** The unsuffixed group. */
  readonly resources: Readonly<Record<string, number>>;
  readonly required?: readonly string[];
  readonly memberOf?: string;
  /** Granular groups by suffix (1.33+ names). */
  readonly groups?: Readonly<Record<string, Group>>;
  readonly groupPolicy?: 'none' | 'isolate';
  readonly sameSubtree?: readonly string[];
  /** How often it is drawn, relative to the others of its mix. */
  readonly weight: number;
}

/**
 * Nova's question for every instance: disabled computes excluded (root_required, 1.35) and at
 * most `max_placement_results` (1000 by default) candidates.
 */
export const STORM_SUFFIX = 'root_required=!COMPUTE_STATUS_DISABLED&limit=1000';

const list = (resources: Readonly<Record<string, number>>) => Object.entries(resources).map(([rc, n]) => `${rc}:${n}`).join(',');

/** The flavor's GET /allocation_candidates path, Nova's fixed parameters last. */
export function queryOf(flavor: Flavor): string {
  const parts = [`resources=${list(flavor.resources)}`];
  if (flavor.required?.length) parts.push(`required=${flavor.required.join(',')}`);
  if (flavor.memberOf) parts.push(`member_of=${flavor.memberOf}`);
  for (const [suffix, group] of Object.entries(flavor.groups ?? {})) {
    parts.push(`resources_${suffix}=${list(group.resources)}`);
    if (group.required?.length) parts.push(`required_${suffix}=${group.required.join(',')}`);
  }
  if (flavor.groupPolicy) parts.push(`group_policy=${flavor.groupPolicy}`);
  if (flavor.sameSubtree) parts.push(`same_subtree=${flavor.sameSubtree.map((s) => `_${s}`).join(',')}`);
  return `/allocation_candidates?${parts.join('&')}&${STORM_SUFFIX}`;
}

/** Everything one instance of the flavor takes, summed over its groups: what its project's usages gain. */
export function amountsOf(flavor: Flavor): Record<string, number> {
  const out: Record<string, number> = {};
  for (const group of [flavor.resources, ...Object.values(flavor.groups ?? {}).map((g) => g.resources)]) {
    for (const [rc, n] of Object.entries(group)) out[rc] = (out[rc] ?? 0) + n;
  }
  return out;
}

const r = (VCPU: number, MEMORY_MB: number, DISK_GB: number) => ({ VCPU, MEMORY_MB, DISK_GB });

/** Flat computes as placeload makes them (1/3 with an SSD, 2/3 in A1, 1/3 in A2). */
export const FLAT_MIX: readonly Flavor[] = [
  { name: 'm1.tiny', resources: r(1, 512, 5), weight: 3 },
  { name: 'm1.small', resources: r(1, 1024, 10), weight: 3 },
  { name: 'm1.medium', resources: r(2, 2048, 20), weight: 3 },
  { name: 'm1.large', resources: r(4, 4096, 40), weight: 2 },
  { name: 'm1.xlarge', resources: r(4, 4096, 80), weight: 1 },
  { name: 'ssd.small', resources: r(1, 2048, 20), required: ['STORAGE_DISK_SSD'], weight: 1 },
  { name: 'hdd.medium', resources: r(2, 3072, 40), required: ['!STORAGE_DISK_SSD'], weight: 1 },
  { name: 'a1.small', resources: r(1, 1024, 10), memberOf: A1, weight: 1 },
  { name: 'a2.sse', resources: r(2, 2048, 40), memberOf: A2, required: ['HW_CPU_X86_SSE2'], weight: 1 },
];

const NUMA = ['HW_NUMA_ROOT'];

/**
 * Trees of a compute node (disk), two NUMA nodes (CPU, memory) and, on every other tree, a
 * physical GPU under each NUMA node (VGPU): flavors that spread over the tree, that fit one NUMA
 * node, that span both, and that want a VGPU, beside or under their NUMA node.
 */
export const NESTED_MIX: readonly Flavor[] = [
  { name: 'm1.tiny', resources: r(1, 512, 5), weight: 2 },
  { name: 'm1.small', resources: r(1, 1024, 10), weight: 2 },
  { name: 'm1.medium', resources: r(2, 2048, 20), weight: 2 },
  { name: 'numa.small', resources: { DISK_GB: 10 }, groups: { NUMA: { resources: { VCPU: 1, MEMORY_MB: 1024 }, required: NUMA } }, weight: 2 },
  { name: 'numa.large', resources: { DISK_GB: 40 }, groups: { NUMA: { resources: { VCPU: 4, MEMORY_MB: 4096 }, required: NUMA } }, weight: 1 },
  {
    name: 'numa.two', resources: { DISK_GB: 80 }, groupPolicy: 'isolate', weight: 1,
    groups: { N0: { resources: { VCPU: 2, MEMORY_MB: 2048 }, required: NUMA }, N1: { resources: { VCPU: 2, MEMORY_MB: 2048 }, required: NUMA } },
  },
  { name: 'vgpu.small', resources: r(2, 2048, 20), groups: { GPU: { resources: { VGPU: 1 } } }, weight: 1 },
  {
    name: 'vgpu.numa', resources: { DISK_GB: 40 }, groupPolicy: 'none', sameSubtree: ['NUMA', 'GPU'], weight: 1,
    groups: { NUMA: { resources: { VCPU: 2, MEMORY_MB: 4096 }, required: NUMA }, GPU: { resources: { VGPU: 1 } } },
  },
  { name: 'vgpu.a1', resources: r(4, 4096, 40), memberOf: A1, groups: { GPU: { resources: { VGPU: 2 } } }, weight: 1 },
];

/** `count` flavors drawn from `mix` by weight with `random` (0 ≤ x < 1): instance i boots the i-th. */
export function drawFlavors(mix: readonly Flavor[], count: number, random: () => number): Flavor[] {
  const total = mix.reduce((sum, f) => sum + f.weight, 0);
  return Array.from({ length: count }, () => {
    let x = random() * total;
    for (const flavor of mix) {
      x -= flavor.weight;
      if (x < 0) return flavor;
    }
    return mix[mix.length - 1];
  });
}
