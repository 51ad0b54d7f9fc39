import { writtenOrder } from '../consumer/allocation-order.js';
import { ConsumerEvent } from '../consumer/consumer.events.js';
import { checkConsumerGeneration } from '../consumer/consumer-generation.js';
import { ConsumerState, holdsAnything } from '../consumer/consumer.state.js';
import { badRequest, notFound } from '../shared/domain-error.js';
import { ProviderEvent, ProviderHolding } from '../provider/provider.events.js';
import { ActiveProvider } from '../provider/provider.state.js';
import { claimRows } from './allocation-rows.js';
import { checkCapacity } from './capacity-check.js';
import { ClaimAllocations, ClaimDecision, ClaimState, ConsumerClaim, RemoveAllocations } from './claim.js';
import { providerMissing } from './claim-messages.js';

const ABSENT: ConsumerState = { status: 'absent' };

/**
 * The whole claim, all or nothing: consumer generations first, then that every named provider
 * exists, then inventory and capacity; on success the new set of every consumer and the
 * provider's side of the change on every provider touched (old and new).
 */
export function decideClaim(command: ClaimAllocations, state: ClaimState): ClaimDecision {
  const consumerOf = (uuid: string) => state.consumers[uuid] ?? ABSENT;
  for (const claim of command.claims) checkConsumerGeneration(consumerOf(claim.consumerUuid), claim.expectedGeneration);

  const active: Record<string, ActiveProvider> = {};
  for (const [uuid, provider] of Object.entries(state.providers)) if (provider.status === 'active') active[uuid] = provider;
  for (const claim of command.claims) {
    for (const uuid of Object.keys(claim.allocations)) if (!active[uuid]) throw badRequest(providerMissing(uuid));
  }

  const rows = claimRows(command.claims, state.consumers);
  checkCapacity(rows, {
    form: command.form,
    consumerUuid: command.claims[0]?.consumerUuid ?? '',
    providers: active,
    claimants: new Set(command.claims.map((claim) => claim.consumerUuid)),
    unknownClasses: new Set(command.unknownClasses),
  });

  const rewritten = new Set(rows.map((row) => row.consumer));
  const bumped = new Set(rows.map((row) => row.provider));
  const consumers: Record<string, ConsumerEvent[]> = {};
  for (const claim of command.claims) {
    consumers[claim.consumerUuid] = consumerEvents(claim, consumerOf(claim.consumerUuid), rewritten.has(claim.consumerUuid));
  }
  const providers: Record<string, ProviderEvent[]> = {};
  for (const [uuid, provider] of Object.entries(active)) {
    const changes = holdingChanges(uuid, command.claims, state.consumers);
    if (Object.keys(changes).length === 0) continue;
    const generation = bumped.has(uuid) ? provider.generation + 1 : provider.generation;
    providers[uuid] = [{ type: 'ProviderAllocationsChanged', data: { consumers: changes, generation, v: 1 } }];
  }
  return { consumers, providers };
}

/**
 * A rewritten consumer's generation moves by one (a new one is created at 0, so it ends at 1);
 * one left with nothing is removed. A consumer the claim never rewrote (an empty set for a consumer
 * holding nothing) is kept, as upstream creates it at generation 0 and never deletes it.
 */
function consumerEvents(claim: ConsumerClaim, current: ConsumerState, rewritten: boolean): ConsumerEvent[] {
  const existing = current.status === 'active' ? current : null;
  const generation = existing?.generation ?? 0;
  if (rewritten && Object.keys(claim.allocations).length === 0) {
    return [{ type: 'ConsumerRemoved', data: { generation: generation + 1, v: 1 } }];
  }
  const data = {
    allocations: claim.allocations,
    project_id: claim.projectId,
    user_id: claim.userId,
    consumer_type: claim.consumerType ?? existing?.consumerType ?? null,
    ...(claim.mappings ? { mappings: claim.mappings } : {}),
    written_order: writtenOrder(claim.allocations),
    generation: rewritten ? generation + 1 : generation,
    v: 1 as const,
  };
  const unchanged = existing && !rewritten && existing.projectId === data.project_id
    && existing.userId === data.user_id && existing.consumerType === data.consumer_type;
  return unchanged ? [] : [{ type: 'ConsumerAllocationsReplaced', data }];
}

/** What each claimant holds on this provider afterwards, for those that held or will hold anything here. */
function holdingChanges(
  provider: string, claims: readonly ConsumerClaim[], consumers: ClaimState['consumers'],
): Record<string, ProviderHolding> {
  const changes: Record<string, ProviderHolding> = {};
  for (const claim of claims) {
    const before = consumers[claim.consumerUuid];
    const held = before?.status === 'active' && provider in before.allocations;
    const after = claim.allocations[provider];
    if (after || held) changes[claim.consumerUuid] = after ?? {};
  }
  return changes;
}

/** DELETE releases everything the consumer holds; upstream moves no provider generation for it. */
export function decideRemoval(command: RemoveAllocations, state: ClaimState): ClaimDecision {
  const consumer = state.consumers[command.consumerUuid] ?? ABSENT;
  if (!holdsAnything(consumer)) throw notFound(`No allocations for consumer '${command.consumerUuid}'`);
  const providers: Record<string, ProviderEvent[]> = {};
  for (const uuid of Object.keys(consumer.allocations)) {
    const provider = state.providers[uuid];
    if (provider?.status !== 'active') continue;
    providers[uuid] = [{
      type: 'ProviderAllocationsChanged',
      data: { consumers: { [command.consumerUuid]: {} }, generation: provider.generation, v: 1 },
    }];
  }
  return {
    consumers: { [command.consumerUuid]: [{ type: 'ConsumerRemoved', data: { generation: consumer.generation, v: 1 } }] },
    providers,
  };
}
