import { writtenOrder } from '../consumer/allocation-order.js';
import type { ConsumerEvent } from '../consumer/consumer.events.js';
import type { ConsumerState } from '../consumer/consumer.state.js';
import type { ProviderEvent, ProviderHolding } from '../provider/provider.events.js';
import type { ProviderState } from '../provider/provider.state.js';
import type { DesiredConsumer, DesiredProvider } from './desired.js';
import { same, sameSet } from './same.js';

/**
 * The facts that take a provider from now to what was decided: made again (its generation after
 * the last its stream recorded), renamed or re-parented, inventories, traits and aggregates set,
 * then the consumers' side, then taken away. Each counted change moves the generation on by one,
 * as the same write through the API would; nothing moves it back.
 */
export function providerEvents(
  uuid: string, now: ProviderState, desired: DesiredProvider, lastGeneration: number | null,
  holdingChanges: Readonly<Record<string, ProviderHolding>>,
): ProviderEvent[] {
  const events: ProviderEvent[] = [];
  let generation = now.status === 'active' ? now.generation : (lastGeneration ?? -1) + 1;
  if (desired.kind === 'active') {
    if (now.status !== 'active') {
      events.push({ type: 'ResourceProviderCreated', data: { uuid, name: desired.name, parent_provider_uuid: desired.parentUuid, generation, v: 1 } });
    } else if (now.name !== desired.name || now.parentUuid !== desired.parentUuid) {
      events.push({ type: 'ResourceProviderUpdated', data: { name: desired.name, parent_provider_uuid: desired.parentUuid, generation, v: 1 } });
    }
    const was = now.status === 'active' ? now : { inventories: {}, traits: [], aggregates: [] };
    if (!same(was.inventories, desired.inventories)) events.push({ type: 'InventoriesSet', data: { inventories: desired.inventories, generation: ++generation, v: 1 } });
    if (!sameSet(was.traits, desired.traits)) events.push({ type: 'TraitsSet', data: { traits: [...desired.traits], generation: ++generation, v: 1 } });
    if (!sameSet(was.aggregates, desired.aggregates)) events.push({ type: 'AggregatesSet', data: { aggregates: [...desired.aggregates], generation: ++generation, v: 1 } });
  }
  if (Object.keys(holdingChanges).length > 0) {
    events.push({ type: 'ProviderAllocationsChanged', data: { consumers: holdingChanges, generation: ++generation, v: 1 } });
  }
  if (desired.kind === 'gone' && now.status === 'active') events.push({ type: 'ResourceProviderDeleted', data: { generation, v: 1 } });
  return events;
}

/** The consumer's whole set as it was (a claim's own event), or its removal; nothing when it already is so. */
export function consumerEvents(now: ConsumerState, desired: DesiredConsumer, lastGeneration: number | null): ConsumerEvent[] {
  const next = now.status === 'active' ? now.generation + 1 : (lastGeneration ?? -1) + 1;
  if (desired.kind === 'gone') return now.status === 'active' ? [{ type: 'ConsumerRemoved', data: { generation: next, v: 1 } }] : [];
  if (desired.kind === 'keep') return [];
  if (now.status === 'active' && now.projectId === desired.projectId && now.userId === desired.userId
    && now.consumerType === desired.consumerType && same(now.allocations, desired.allocations)) return [];
  return [{
    type: 'ConsumerAllocationsReplaced',
    data: {
      allocations: desired.allocations, project_id: desired.projectId, user_id: desired.userId, consumer_type: desired.consumerType,
      written_order: writtenOrder(desired.allocations), generation: next, v: 1,
    },
  }];
}

/** What each consumer holds on one provider afterwards, for those whose holding there changes ({} = released). */
export function holdingChangesOn(
  provider: string, consumers: ReadonlyMap<string, { before: Readonly<Record<string, ProviderHolding>>; after: Readonly<Record<string, ProviderHolding>> }>,
): Record<string, ProviderHolding> {
  const changes: Record<string, ProviderHolding> = {};
  for (const [consumer, { before, after }] of consumers) {
    if (!(provider in before) && !(provider in after)) continue;
    if (same(before[provider] ?? {}, after[provider] ?? {})) continue;
    changes[consumer] = after[provider] ?? {};
  }
  return changes;
}
