import {
  evolveProvider, initialProviderState, ProviderEvent, ProviderState, replay,
} from '#domain/index.js';
import { ConsumerEvent, ConsumerState, evolveConsumer, initialConsumerState } from '#domain/consumer/index.js';
import { ConsumerTypeScope, TypedUsageRow } from '../usages/usage-grouping.js';
import { LedgerEvent } from './ledger-event.js';

/** A stream's state at a point: its events up to that point, folded with the domain's own evolve. */
export const providerAt = (events: readonly LedgerEvent[]): ProviderState =>
  replay(evolveProvider, initialProviderState(), events as unknown as ProviderEvent[]);

export const consumerAt = (events: readonly LedgerEvent[]): ConsumerState =>
  replay(evolveConsumer, initialConsumerState(), events as unknown as ConsumerEvent[]);

/**
 * The top of a provider's tree, walking parents as they were; `parentOf` answers undefined for
 * a provider it does not know. A loop (impossible in a consistent log) stops where it closes.
 */
export function rootOf(uuid: string, parentOf: (uuid: string) => string | null | undefined): string {
  const seen = new Set<string>();
  let current = uuid;
  for (;;) {
    seen.add(current);
    const parent = parentOf(current);
    if (!parent || seen.has(parent)) return current;
    current = parent;
  }
}

export interface UsageFilter {
  readonly projectId: string;
  readonly userId?: string;
  readonly scope: ConsumerTypeScope;
}

/**
 * GET /usages over replayed consumers: what the project's (or user's) consumers of each type
 * hold of each class, and how many consumers of the type hold anything, as upstream's query.
 */
export function usageRows(consumers: Iterable<ConsumerState>, filter: UsageFilter): TypedUsageRow[] {
  const used = new Map<string | null, Map<string, number>>();
  const counts = new Map<string | null, number>();
  for (const consumer of consumers) {
    if (consumer.status !== 'active' || consumer.projectId !== filter.projectId) continue;
    if (filter.userId !== undefined && consumer.userId !== filter.userId) continue;
    const type = consumer.consumerType;
    if (filter.scope.only !== undefined && type !== filter.scope.only) continue;
    const holdings = Object.values(consumer.allocations);
    if (!holdings.some((resources) => Object.keys(resources).length > 0)) continue;
    counts.set(type, (counts.get(type) ?? 0) + 1);
    const byClass = used.get(type) ?? new Map<string, number>();
    used.set(type, byClass);
    for (const resources of holdings) {
      for (const [rc, amount] of Object.entries(resources)) byClass.set(rc, (byClass.get(rc) ?? 0) + amount);
    }
  }
  const rows: TypedUsageRow[] = [];
  for (const [consumer_type, byClass] of used) {
    for (const [resource_class, amount] of byClass) rows.push({ consumer_type, resource_class, used: amount, consumer_count: counts.get(consumer_type)! });
  }
  return rows;
}
