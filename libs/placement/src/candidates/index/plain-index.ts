import { ActiveProvider, inventoryWithDefaults, Inventory } from '#domain/index.js';
import { ProviderIndex } from './provider-index.js';

/** A provider as plain data: what specs and tools need to describe a deployment briefly. */
const ANONYMOUS_CONSUMER = '00000000-0000-0000-0000-000000000000';

export interface PlainProvider {
  readonly uuid: string;
  readonly parent?: string;
  readonly inventories?: Readonly<Record<string, Partial<Inventory> & { total: number }>>;
  readonly used?: Readonly<Record<string, number>>;
  readonly traits?: readonly string[];
  readonly aggregates?: readonly string[];
}

export function activeProvider(plain: PlainProvider): ActiveProvider {
  const inventories: Record<string, Inventory> = {};
  for (const [rc, fields] of Object.entries(plain.inventories ?? {})) inventories[rc] = inventoryWithDefaults(fields);
  return {
    status: 'active', uuid: plain.uuid, name: plain.uuid, parentUuid: plain.parent ?? null, generation: 0,
    inventories, traits: [...(plain.traits ?? [])], aggregates: [...(plain.aggregates ?? [])], usages: { ...(plain.used ?? {}) },
    // One anonymous consumer holds all the usage, so usages stays the sum of allocations.
    allocations: plain.used ? { [ANONYMOUS_CONSUMER]: { ...plain.used } } : {},
  };
}

/** An index holding exactly these providers (parents listed before their children). */
export function indexOf(providers: readonly PlainProvider[]): ProviderIndex {
  const index = new ProviderIndex();
  for (const plain of providers) index.put(plain.uuid, activeProvider(plain));
  return index;
}
