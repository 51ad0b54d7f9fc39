import { seededRandom } from '../../support/seeded-random.js';
import { FLAT_AGGREGATES, FLAT_TRAITS } from '../shapes.js';

/**
 * The storm's clouds as plain data, made from a seed: the same seed gives the same providers,
 * uuids included, so a run can be made again and both servers hold the same cloud.
 */
export type Random = ReturnType<typeof seededRandom>;

export interface InventoryPlan {
  readonly total: number;
  readonly reserved?: number;
  readonly min_unit?: number;
  readonly max_unit?: number;
  readonly step_size?: number;
}

export interface ProviderPlan {
  readonly uuid: string;
  readonly name: string;
  readonly parent?: string;
  readonly inventories: Readonly<Record<string, InventoryPlan>>;
  readonly traits: readonly string[];
  readonly aggregates: readonly string[];
}

/** A tree: its root first, each provider after its parent. */
export type TreePlan = readonly ProviderPlan[];

export type ShapeName = 'flat' | 'nested';

/** About one compute in fifty is disabled: `root_required=!COMPUTE_STATUS_DISABLED` has something to leave out. */
const DISABLED_SHARE = 0.02;

/** A version 4 uuid from the seeded sequence. */
export function seededUuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => random.int(16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[random.int(4)]}${hex.slice(17, 20)}-${hex.slice(20)}`;
}

const statusTraits = (random: Random) => (random.next() < DISABLED_SHARE ? ['COMPUTE_STATUS_DISABLED'] : []);

/** placeload's flat compute (shapes.ts's flatProvider), with its aggregates and traits. */
function flatCompute(random: Random, i: number): TreePlan {
  return [{
    uuid: seededUuid(random), name: `storm-cn-${i}`,
    inventories: {
      VCPU: { total: 32, min_unit: 1, max_unit: 16 },
      MEMORY_MB: { total: 8192, min_unit: 128, max_unit: 8192 },
      DISK_GB: { total: 8192, min_unit: 5, max_unit: 8192 },
    },
    traits: [...FLAT_TRAITS[i % 3], ...statusTraits(random)],
    aggregates: FLAT_AGGREGATES[i % 3],
  }];
}

/** A compute node with its disk, two NUMA nodes with CPU and memory, and on every other tree a physical GPU under each NUMA node. */
function nestedCompute(random: Random, i: number): TreePlan {
  const root: ProviderPlan = {
    uuid: seededUuid(random), name: `storm-tree-${i}`, inventories: { DISK_GB: { total: 4096, min_unit: 5, max_unit: 4096 } },
    traits: [...FLAT_TRAITS[i % 3], ...statusTraits(random)], aggregates: FLAT_AGGREGATES[i % 3],
  };
  const tree: ProviderPlan[] = [root];
  for (const numa of [0, 1]) {
    const node: ProviderPlan = {
      uuid: seededUuid(random), name: `storm-tree-${i}-numa${numa}`, parent: root.uuid, traits: ['HW_NUMA_ROOT'], aggregates: [],
      inventories: { VCPU: { total: 16, max_unit: 16 }, MEMORY_MB: { total: 16384, min_unit: 256, max_unit: 16384, step_size: 256 } },
    };
    tree.push(node);
    if (i % 2 === 0) {
      tree.push({ uuid: seededUuid(random), name: `storm-tree-${i}-pgpu${numa}`, parent: node.uuid, traits: [], aggregates: [], inventories: { VGPU: { total: 4, max_unit: 4 } } });
    }
  }
  return tree;
}

/** The wide tree of issue 30: a compute node whose `width` children each have one PCI device. */
export function wideTree(random: Random, width = 10): TreePlan {
  const root: ProviderPlan = { uuid: seededUuid(random), name: 'storm-wide', inventories: {}, traits: [], aggregates: [] };
  return [root, ...Array.from({ length: width }, (_v, i): ProviderPlan => ({
    uuid: seededUuid(random), name: `storm-wide-pci-${i}`, parent: root.uuid, inventories: { PCI_DEVICE: { total: 1 } }, traits: [], aggregates: [],
  }))];
}

/** `count` computes of `shape` from `seed`. */
export function stormCloud(shape: ShapeName, count: number, seed: number): TreePlan[] {
  const random = seededRandom(seed);
  const make = shape === 'flat' ? flatCompute : nestedCompute;
  return Array.from({ length: count }, (_v, i) => make(random, i));
}

/** One group per device, isolated (upstream bugs 2070257 and 2126751): `width`! candidates without a limit. */
export function wideQuery(width: number, limit?: number): string {
  const groups = Array.from({ length: width }, (_v, i) => `resources${i + 1}=PCI_DEVICE:1`).join('&');
  return `/allocation_candidates?${groups}&group_policy=isolate${limit === undefined ? '' : `&limit=${limit}`}`;
}
