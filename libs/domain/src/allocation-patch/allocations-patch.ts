import type { ConsumerClaim } from '../allocation/claim.js';
import type { ConsumerAllocations } from '../consumer/consumer.events.js';
import type { ConsumerState } from '../consumer/consumer.state.js';
import { notFound } from '../shared/domain-error.js';
import { Json, mergePatch } from './merge-patch.js';

/**
 * A merge patch (RFC 7396) of a consumer's allocations document as GET /allocations/{consumer}
 * shows it from 1.28, already validated: null removes a class, a provider, nothing else.
 */
export interface AllocationsPatch {
  /** Required: checked against the consumer's generation exactly as PUT checks it. */
  readonly consumer_generation: number;
  readonly allocations?: Readonly<Record<string, null | {
    readonly resources?: Readonly<Record<string, number | null>> | null;
    /** The provider's generation GET shows; ignored, as PUT ignores it. */
    readonly generation?: number | null;
  }>>;
  readonly project_id?: string;
  readonly user_id?: string;
  readonly consumer_type?: string;
}

export const consumerNotFoundForPatch = (consumerUuid: string) =>
  `Consumer ${consumerUuid} not found: a merge patch changes an existing consumer's allocations; create one with PUT /allocations/${consumerUuid}`;

/**
 * The consumer's whole new set, as a PUT of the merged document would send it: the patch merged
 * into what the consumer holds now, providers left with no class dropped. A patch never creates a
 * consumer (it has nothing to merge into), so an absent one is a 404. The consumer type is carried
 * only when patched, so one never given stays "unknown" as after a PUT below 1.38.
 */
export function mergeAllocationsPatch(consumerUuid: string, current: ConsumerState, patch: AllocationsPatch): ConsumerClaim {
  if (current.status !== 'active') throw notFound(consumerNotFoundForPatch(consumerUuid));
  const document = {
    allocations: Object.fromEntries(Object.entries(current.allocations).map(([rp, resources]) => [rp, { resources: { ...resources } }])),
  };
  const merged = mergePatch(document, { allocations: (patch.allocations ?? {}) as Json }) as { allocations: Record<string, { resources?: Record<string, number> }> };
  const allocations: Record<string, Record<string, number>> = {};
  for (const [rp, entry] of Object.entries(merged.allocations)) {
    if (entry.resources && Object.keys(entry.resources).length > 0) allocations[rp] = entry.resources;
  }
  return {
    consumerUuid,
    allocations: allocations as ConsumerAllocations,
    projectId: patch.project_id ?? current.projectId,
    userId: patch.user_id ?? current.userId,
    ...(patch.consumer_type !== undefined ? { consumerType: patch.consumer_type } : {}),
    expectedGeneration: patch.consumer_generation,
  };
}
