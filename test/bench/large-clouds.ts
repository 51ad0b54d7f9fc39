import { inventoryWithDefaults, UpstreamProvider, UpstreamState } from '#domain/index.js';
// placeload's flat provider (../shared/reference/perfload-shapes.md), at any count.
import { FLAT_AGGREGATES, FLAT_QUERY, FLAT_TRAITS } from './shapes.js';

/** A cloud too large to load through the API for every bench run: built as an upstream database and imported. */
export interface LargeCloud {
  readonly name: string;
  readonly description: string;
  readonly state: UpstreamState;
  /** The queries timed, each with the goal for its single-client p50. */
  readonly queries: readonly { readonly label: string; readonly path: string; readonly goalMs: number }[];
}

const T = '2025-06-01T12:00:00.000Z';
const uuid = (kind: number, n: number) => `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

const provider = (n: number, kind: number, name: string, inventories: UpstreamProvider['inventories'], traits: readonly string[], aggregates: readonly string[]): UpstreamProvider => ({
  uuid: uuid(kind, n), name, generation: 3, parentUuid: null, modifiedAt: T, inventories, inventoriesModifiedAt: T, traits, aggregates,
});

export function flatCloud(count: number): LargeCloud {
  const providers = Array.from({ length: count }, (_v, i) => provider(i, 0xf1a7, `flat-${i}`, {
    VCPU: inventoryWithDefaults({ total: 32, min_unit: 1, max_unit: 16 }),
    MEMORY_MB: inventoryWithDefaults({ total: 8192, min_unit: 128, max_unit: 8192 }),
    DISK_GB: inventoryWithDefaults({ total: 8192, min_unit: 5, max_unit: 8192 }),
  }, FLAT_TRAITS[i % 3], FLAT_AGGREGATES[i % 3]));
  return {
    name: `flat-${count}`, description: `${count} flat providers as placeload makes them`,
    state: { revision: '422ece571366', resourceClasses: [], traits: [], providers, consumers: [] },
    // Nova's default max_placement_results is 1000.
    queries: [{ label: 'placeload query, limit=1000', path: `${FLAT_QUERY}&limit=1000`, goalMs: 50 }, { label: 'placeload query, unlimited', path: FLAT_QUERY, goalMs: 1000 }],
  };
}

const METALS = ['GOLD', 'SILVER', 'BRONZE', 'PLATINUM', 'IRON', 'COPPER', 'NICKEL', 'ZINC', 'TIN', 'LEAD',
  'COBALT', 'CHROME', 'TITANIUM', 'STEEL', 'BRASS', 'PEWTER', 'MERCURY', 'RADIUM', 'OSMIUM', 'IRIDIUM'];

/** Ironic: every node offers one unit of its flavor's custom class; 20 classes share the nodes evenly. */
export function ironicCloud(count: number): LargeCloud {
  const classes = METALS.map((metal) => `CUSTOM_BAREMETAL_${metal}`);
  const providers = Array.from({ length: count }, (_v, i) => provider(i, 0x1c0c, `node-${i}`, {
    [classes[i % classes.length]]: inventoryWithDefaults({ total: 1, max_unit: 1 }),
  }, [], []));
  return {
    name: `ironic-${count}`, description: `${count} bare-metal nodes, each 1 unit of one of ${classes.length} CUSTOM_BAREMETAL_* classes`,
    state: { revision: '422ece571366', resourceClasses: classes.map((name) => ({ name, modifiedAt: T })), traits: [], providers, consumers: [] },
    queries: [{ label: 'CUSTOM_BAREMETAL_GOLD:1, limit=1000', path: '/allocation_candidates?resources=CUSTOM_BAREMETAL_GOLD:1&limit=1000', goalMs: 10 }],
  };
}
