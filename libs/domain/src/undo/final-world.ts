import type { ConsumerState } from '../consumer/consumer.state.js';
import type { ProviderHolding } from '../provider/provider.events.js';
import type { Inventories } from '../provider/inventory.js';
import type { ProviderState } from '../provider/provider.state.js';
import type { DesiredConsumer, DesiredProvider } from './desired.js';

/** A provider as the plan would leave it: alive or not, its inventories, and who holds what on it. */
export interface FinalProvider {
  readonly alive: boolean;
  readonly inventories: Inventories;
  readonly holdings: Readonly<Record<string, ProviderHolding>>;
}

export interface World {
  readonly providersNow: Readonly<Record<string, ProviderState>>;
  readonly consumersNow: Readonly<Record<string, ConsumerState>>;
  readonly providers: ReadonlyMap<string, DesiredProvider>;
  readonly consumers: ReadonlyMap<string, DesiredConsumer>;
}

/** Whether a provider exists once the accepted part of the plan is applied. */
export function aliveAfter(world: World, uuid: string): boolean {
  const desired = world.providers.get(uuid);
  if (desired?.kind === 'active') return true;
  if (desired?.kind === 'gone') return false;
  return world.providersNow[uuid]?.status === 'active';
}

/** What a consumer holds once the plan is applied, by provider (nothing for one taken away). */
export function holdingsAfter(world: World, uuid: string): Readonly<Record<string, ProviderHolding>> {
  const desired = world.consumers.get(uuid);
  if (desired?.kind === 'active') return desired.allocations;
  if (desired?.kind === 'gone') return {};
  const now = world.consumersNow[uuid];
  return now?.status === 'active' ? now.allocations : {};
}

/** Every provider the plan leaves with a state: inventories as decided, holdings moved as the consumers decided. */
export function finalProviders(world: World): Map<string, FinalProvider> {
  const result = new Map<string, FinalProvider & { holdings: Record<string, ProviderHolding> }>();
  for (const [uuid, now] of Object.entries(world.providersNow)) {
    const desired = world.providers.get(uuid);
    const inventories = desired?.kind === 'active' ? desired.inventories : now.status === 'active' ? now.inventories : {};
    const holdings: Record<string, ProviderHolding> = now.status === 'active' ? { ...now.allocations } : {};
    result.set(uuid, { alive: aliveAfter(world, uuid), inventories, holdings });
  }
  for (const consumer of world.consumers.keys()) {
    const before = world.consumersNow[consumer];
    if (before?.status === 'active') {
      for (const provider of Object.keys(before.allocations)) {
        const final = result.get(provider);
        if (final) delete final.holdings[consumer];
      }
    }
    for (const [provider, holding] of Object.entries(holdingsAfter(world, consumer))) {
      const final = result.get(provider);
      if (final) final.holdings[consumer] = holding;
    }
  }
  return result;
}

export function usageOf(holdings: Readonly<Record<string, ProviderHolding>>, rc: string): number {
  let used = 0;
  for (const holding of Object.values(holdings)) used += holding[rc] ?? 0;
  return used;
}
