import { Inventories } from './inventory.js';
import { ProviderEvent, ProviderHolding } from './provider.events.js';

export interface ActiveProvider {
  readonly status: 'active';
  readonly uuid: string;
  readonly name: string;
  readonly parentUuid: string | null;
  readonly generation: number;
  readonly inventories: Inventories;
  readonly traits: readonly string[];
  readonly aggregates: readonly string[];
  /** Units allocated per class; kept from the provider's side of allocation events. */
  readonly usages: Readonly<Record<string, number>>;
  /** What each consumer holds here, by consumer uuid: usages is their sum. */
  readonly allocations: Readonly<Record<string, ProviderHolding>>;
}

export type ProviderState =
  | { readonly status: 'absent' }
  | ActiveProvider
  | { readonly status: 'deleted'; readonly uuid: string };

export const initialProviderState = (): ProviderState => ({ status: 'absent' });

export function evolveProvider(state: ProviderState, event: ProviderEvent): ProviderState {
  if (event.type === 'ResourceProviderCreated') {
    const { uuid, name, parent_provider_uuid, generation } = event.data;
    return { status: 'active', uuid, name, parentUuid: parent_provider_uuid, generation, inventories: {}, traits: [], aggregates: [], usages: {}, allocations: {} };
  }
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'StreamImported':
      return state;
    case 'ResourceProviderUpdated':
      return { ...state, name: event.data.name, parentUuid: event.data.parent_provider_uuid, generation: event.data.generation };
    case 'ResourceProviderDeleted':
      return { status: 'deleted', uuid: state.uuid };
    case 'InventoriesSet':
      return { ...state, inventories: event.data.inventories, generation: event.data.generation };
    case 'TraitsSet':
      return { ...state, traits: event.data.traits, generation: event.data.generation };
    case 'AggregatesSet':
      return { ...state, aggregates: event.data.aggregates, generation: event.data.generation };
    case 'ProviderAllocationsChanged': {
      const allocations = withHoldings(state.allocations, event.data.consumers);
      return { ...state, allocations, usages: sumHoldings(allocations), generation: event.data.generation };
    }
  }
}

function withHoldings(
  current: Readonly<Record<string, ProviderHolding>>, changed: Readonly<Record<string, ProviderHolding>>,
): Record<string, ProviderHolding> {
  const next: Record<string, ProviderHolding> = { ...current };
  for (const [consumer, holding] of Object.entries(changed)) {
    if (Object.keys(holding).length > 0) next[consumer] = holding;
    else delete next[consumer];
  }
  return next;
}

function sumHoldings(allocations: Readonly<Record<string, ProviderHolding>>): Record<string, number> {
  const usages: Record<string, number> = {};
  for (const holding of Object.values(allocations)) {
    for (const [rc, used] of Object.entries(holding)) usages[rc] = (usages[rc] ?? 0) + used;
  }
  return usages;
}
