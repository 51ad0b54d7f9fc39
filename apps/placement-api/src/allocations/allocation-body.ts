import type { ConsumerAllocations, ConsumerClaim, ReshapedInventory } from '#domain/allocation/index.js';
import { Inventory, inventoryWithDefaults } from '#domain/index.js';
import type { Schema } from '../platform/json-body.js';
import { Version } from '../platform/microversion.js';
import { INCOMPLETE_CONSUMER_ID } from '#platform/allocation-settings.js';
import {
  POST_ALLOCATIONS_V1_13, POST_ALLOCATIONS_V1_28, POST_ALLOCATIONS_V1_34, POST_ALLOCATIONS_V1_38, PUT_ALLOCATIONS_V1_0,
  PUT_ALLOCATIONS_V1_12, PUT_ALLOCATIONS_V1_28, PUT_ALLOCATIONS_V1_34, PUT_ALLOCATIONS_V1_38, PUT_ALLOCATIONS_V1_8,
} from './allocation.schemas.js';

/** Who owns a consumer written without project and user (below 1.8): upstream's [placement] incomplete_consumer_*_id. */
export interface IncompleteOwners {
  readonly projectId: string;
  readonly userId: string;
}

const DEFAULT_OWNERS: IncompleteOwners = { projectId: INCOMPLETE_CONSUMER_ID, userId: INCOMPLETE_CONSUMER_ID };

export function putSchemaFor(version: Version): Schema {
  if (version.matches('1.38')) return PUT_ALLOCATIONS_V1_38;
  if (version.matches('1.34')) return PUT_ALLOCATIONS_V1_34;
  if (version.matches('1.28')) return PUT_ALLOCATIONS_V1_28;
  if (version.matches('1.12')) return PUT_ALLOCATIONS_V1_12;
  if (version.matches('1.8')) return PUT_ALLOCATIONS_V1_8;
  return PUT_ALLOCATIONS_V1_0;
}

export function postSchemaFor(version: Version): Schema {
  if (version.matches('1.38')) return POST_ALLOCATIONS_V1_38;
  if (version.matches('1.34')) return POST_ALLOCATIONS_V1_34;
  if (version.matches('1.28')) return POST_ALLOCATIONS_V1_28;
  return POST_ALLOCATIONS_V1_13;
}

/** As upstream stores a consumer named in a URL: str(uuid.UUID(value)). */
export function canonicalUuid(value: string): string {
  const hex = value.replace(/^urn:uuid:/i, '').replace(/[{}-]/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

interface ListEntry { resource_provider: { uuid: string }; resources: Record<string, number> }
interface DictEntry { resources: Record<string, number> }

/** Below 1.12 a list; a provider named twice keeps its first place and its last resources, as a Python dict. */
function fromList(entries: readonly ListEntry[]): ConsumerAllocations {
  const allocations: Record<string, Record<string, number>> = {};
  for (const entry of entries) allocations[entry.resource_provider.uuid] = entry.resources;
  return allocations;
}

function fromDict(entries: Readonly<Record<string, DictEntry>>): ConsumerAllocations {
  return Object.fromEntries(Object.entries(entries).map(([provider, entry]) => [provider, entry.resources]));
}

/** One consumer's part of a validated body, in the terms of the microversion it was written for. */
export function consumerClaimFrom(consumerUuid: string, data: any, version: Version, owners: IncompleteOwners = DEFAULT_OWNERS): ConsumerClaim {
  const allocations = version.matches('1.12') ? fromDict(data.allocations) : fromList(data.allocations);
  // Upstream fills both ids when the project is missing, which only happens below 1.8.
  const owned = data.project_id !== undefined;
  return {
    consumerUuid,
    allocations,
    projectId: owned ? data.project_id : owners.projectId,
    userId: owned ? data.user_id : owners.userId,
    ...(version.matches('1.28') ? { expectedGeneration: data.consumer_generation ?? null } : {}),
    ...(version.matches('1.38') ? { consumerType: data.consumer_type } : {}),
    ...(data.mappings ? { mappings: data.mappings } : {}),
  };
}

/** POST /allocations: consumers are keyed exactly as sent (upstream does not normalise them). */
export function batchClaimsFrom(data: Record<string, any>, version: Version, owners: IncompleteOwners = DEFAULT_OWNERS): ConsumerClaim[] {
  return Object.entries(data).map(([consumerUuid, part]) => consumerClaimFrom(consumerUuid, part, version, owners));
}

/** POST /reshaper: each provider's inventories completed with upstream's defaults, and the claims. */
export function reshapeFrom(data: any, version: Version, owners: IncompleteOwners = DEFAULT_OWNERS): { inventories: ReshapedInventory[]; claims: ConsumerClaim[] } {
  const inventories = Object.entries(data.inventories as Record<string, any>).map(([uuid, entry]) => ({
    uuid,
    generation: entry.resource_provider_generation as number,
    inventories: Object.fromEntries(Object.entries(entry.inventories as Record<string, Partial<Inventory> & { total: number }>)
      .map(([rc, record]) => [rc, inventoryWithDefaults(record)])),
  }));
  return { inventories, claims: batchClaimsFrom(data.allocations, version, owners) };
}
