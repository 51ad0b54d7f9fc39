import type {
  ConsumerWrite, LedgerEvent, ProviderClaimsAnswer, StaleConsumer,
} from '#placement/ledger/index.js';
import { positionToken, presentLedgerEvent } from '#placement/ledger/index.js';

type Allocations = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** Provider uuid -> {resources}, as upstream's GET /allocations/{consumer} keys them. */
const byProvider = (allocations: Allocations) =>
  Object.fromEntries(Object.entries(allocations).map(([provider, resources]) => [provider, { resources }]));

/** When and where in the log a write happened, and who asked for it. */
function mark(event: LedgerEvent) {
  const { requestId, userId, projectId, roles } = event.metadata;
  return {
    time: event.time,
    position: positionToken(event.position),
    request_id: requestId ?? null,
    user_id: userId ?? null,
    project_id: projectId ?? null,
    roles: roles ?? [],
  };
}

export function presentProviderClaims(providerUuid: string, answer: ProviderClaimsAnswer) {
  return {
    resource_provider_uuid: providerUuid,
    resource_provider_generation: answer.generation,
    claims: answer.claims.map((claim) => ({
      consumer_uuid: claim.consumerUuid,
      resources: claim.resources,
      project_id: claim.owner?.projectId ?? null,
      user_id: claim.owner?.userId ?? null,
      consumer_type: claim.owner ? claim.owner.consumerType ?? 'unknown' : null,
      consumer_generation: claim.owner?.generation ?? null,
      claimed_at: claim.claimed.time,
      claimed: mark(claim.claimed),
      last_written_at: claim.lastWritten.time,
      last_written: mark(claim.lastWritten),
    })),
  };
}

export function presentRequestAudit(requestId: string, events: readonly LedgerEvent[], writes: readonly ConsumerWrite[]) {
  return {
    request_id: requestId,
    events: events.map(presentLedgerEvent),
    allocations: writes.map((write) => write.removed
      ? { consumer_uuid: write.consumerUuid, removed: true, consumer_generation: write.generation, ...at(write.event) }
      : {
          consumer_uuid: write.consumerUuid,
          removed: false,
          allocations: byProvider(write.allocations),
          project_id: write.projectId,
          user_id: write.userId,
          consumer_type: write.consumerType ?? 'unknown',
          consumer_generation: write.generation,
          ...at(write.event),
        }),
  };
}

const at = (event: LedgerEvent) => ({ time: event.time, position: positionToken(event.position) });

export function presentStaleConsumers(olderThan: string, consumers: readonly StaleConsumer[]) {
  return {
    older_than: olderThan,
    consumers: consumers.map((consumer) => ({
      consumer_uuid: consumer.consumerUuid,
      project_id: consumer.projectId,
      user_id: consumer.userId,
      consumer_type: consumer.consumerType ?? 'unknown',
      consumer_generation: consumer.generation,
      last_written_at: consumer.lastWrittenAt,
      age_seconds: consumer.ageSeconds,
      allocations: byProvider(consumer.allocations),
    })),
  };
}
