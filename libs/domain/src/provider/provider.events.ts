import { Inventories } from './inventory.js';

/** Facts of a provider stream (`provider-{uuid}`). Stored types are frozen: add, never change. */
export type ProviderEvent =
  | { type: 'ResourceProviderCreated'; data: { uuid: string; name: string; parent_provider_uuid: string | null; generation: number; v: 1 } }
  | { type: 'ResourceProviderUpdated'; data: { name: string; parent_provider_uuid: string | null; generation: number; v: 1 } }
  | { type: 'ResourceProviderDeleted'; data: { generation: number; v: 1 } }
  | { type: 'InventoriesSet'; data: { inventories: Inventories; generation: number; v: 1 } }
  | { type: 'TraitsSet'; data: { traits: string[]; generation: number; v: 1 } }
  | { type: 'AggregatesSet'; data: { aggregates: string[]; generation: number; v: 1 } }
  /** The provider's side of one claim: what each named consumer holds here now ({} = released). */
  | { type: 'ProviderAllocationsChanged'; data: { consumers: Readonly<Record<string, ProviderHolding>>; generation: number; v: 1 } };

/** Units of each resource class one consumer holds on one provider. */
export type ProviderHolding = Readonly<Record<string, number>>;

export type ProviderEventType = ProviderEvent['type'];

export const providerStream = (uuid: string) => `provider-${uuid}`;
