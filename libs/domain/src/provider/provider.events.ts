import { Inventories } from './inventory.js';
import type { StreamImported } from '../import/stream-imported.js';

/** Facts of a provider stream (`provider-{uuid}`). Stored types are frozen: add, never change. */
export type ProviderEvent =
  | StreamImported
  /** occurred_at, set by an import only: when the source last changed the provider, ISO 8601 (Last-Modified). */
  | { type: 'ResourceProviderCreated'; data: { uuid: string; name: string; parent_provider_uuid: string | null; generation: number; occurred_at?: string; v: 1 } }
  | { type: 'ResourceProviderUpdated'; data: { name: string; parent_provider_uuid: string | null; generation: number; v: 1 } }
  | { type: 'ResourceProviderDeleted'; data: { generation: number; v: 1 } }
  /** occurred_at, set by an import only: the source's latest inventory change, ISO 8601. */
  | { type: 'InventoriesSet'; data: { inventories: Inventories; generation: number; occurred_at?: string; v: 1 } }
  | { type: 'TraitsSet'; data: { traits: string[]; generation: number; v: 1 } }
  | { type: 'AggregatesSet'; data: { aggregates: string[]; generation: number; v: 1 } }
  /** The provider's side of one claim: what each named consumer holds here now ({} = released). */
  | { type: 'ProviderAllocationsChanged'; data: { consumers: Readonly<Record<string, ProviderHolding>>; generation: number; v: 1 } };

/** Units of each resource class one consumer holds on one provider. */
export type ProviderHolding = Readonly<Record<string, number>>;

export const providerStream = (uuid: string) => `provider-${uuid}`;
