import type { ActiveProvider } from '#domain/index.js';
import type { ConsumerAllocationsAsOf, ProviderAllocationsAsOf, ProviderAsOf } from '#placement/ledger/index.js';
import { presentAggregates } from '../aggregates/aggregates.presenter.js';
import { presentInventories } from '../inventories/inventory.presenter.js';
import { MAX_VERSION } from '../platform/microversion.js';
import { presentProvider } from '../resource-providers/resource-provider.presenter.js';

/** Past states, shaped as upstream's GETs answer them at the latest microversion. */
export function presentProviderAsOf({ provider, rootUuid }: ProviderAsOf) {
  const row = {
    uuid: provider.uuid, name: provider.name, generation: provider.generation, parent_provider_uuid: provider.parentUuid,
    // presentProvider reads neither date; the row type wants them.
    root_provider_uuid: rootUuid, created_at: new Date(0), updated_at: new Date(0),
  };
  return presentProvider(row, MAX_VERSION);
}

export const presentInventoriesAsOf = (provider: ActiveProvider) => presentInventories(provider.generation, provider.inventories);

export const presentTraitsAsOf = (provider: ActiveProvider) =>
  ({ traits: [...provider.traits], resource_provider_generation: provider.generation });

export const presentAggregatesAsOf = (provider: ActiveProvider) => presentAggregates(provider.aggregates, provider.generation, MAX_VERSION);

/** Every class the provider had inventory of, 0 where nothing was allocated, as upstream's usages. */
export function presentProviderUsagesAsOf(provider: ActiveProvider) {
  const usages: Record<string, number> = {};
  for (const rc of Object.keys(provider.inventories)) usages[rc] = provider.usages[rc] ?? 0;
  return { resource_provider_generation: provider.generation, usages };
}

/** `shown`: the consumers the caller may see (each judged against its owner then). */
export function presentProviderAllocationsAsOf({ provider, consumers }: ProviderAllocationsAsOf, shown: ReadonlySet<string>) {
  const allocations: Record<string, { resources: Record<string, number>; consumer_generation: number | null }> = {};
  for (const [consumer, resources] of Object.entries(provider.allocations)) {
    if (!shown.has(consumer)) continue;
    const state = consumers.get(consumer);
    allocations[consumer] = { resources: { ...resources }, consumer_generation: state?.status === 'active' ? state.generation : null };
  }
  return { allocations, resource_provider_generation: provider.generation };
}

/** Who owns the consumer only when it holds something, as upstream (it cannot tell "empty" from "unknown"). */
export function presentConsumerAllocationsAsOf({ consumer, providerGenerations }: ConsumerAllocationsAsOf) {
  const allocations: Record<string, { resources: Record<string, number>; generation: number | null }> = {};
  if (consumer.status !== 'active') return { allocations };
  for (const [provider, resources] of Object.entries(consumer.allocations)) {
    if (Object.keys(resources).length === 0) continue;
    allocations[provider] = { resources: { ...resources }, generation: providerGenerations.get(provider) ?? null };
  }
  if (Object.keys(allocations).length === 0) return { allocations };
  return {
    allocations,
    project_id: consumer.projectId,
    user_id: consumer.userId,
    consumer_generation: consumer.generation,
    consumer_type: consumer.consumerType ?? 'unknown',
  };
}
