import { inventoryWithDefaults, UpstreamProvider, UpstreamState } from '#domain/index.js';
import type { ProviderPlan, TreePlan } from './cloud.js';

const LOADED_AT = '2026-01-01T00:00:00.000Z';

/** The generation loading it through the API gives: one for each of inventories, aggregates and traits it has. */
const generationOf = (plan: ProviderPlan) =>
  [Object.keys(plan.inventories).length, plan.aggregates.length, plan.traits.length].filter((n) => n > 0).length;

/**
 * The storm's cloud as an upstream Placement database holds it, for `--load import`: the same
 * providers, uuids, inventories (upstream's defaults where the plan is silent), traits, aggregates
 * and generations as loading it through the API gives, and no consumers.
 */
export function cloudState(trees: readonly TreePlan[]): UpstreamState {
  const providers = trees.flat().map((plan): UpstreamProvider => {
    const hasInventory = Object.keys(plan.inventories).length > 0;
    return {
      uuid: plan.uuid, name: plan.name, generation: generationOf(plan), parentUuid: plan.parent ?? null, modifiedAt: LOADED_AT,
      inventories: Object.fromEntries(Object.entries(plan.inventories).map(([rc, inventory]) => [rc, inventoryWithDefaults(inventory)])),
      inventoriesModifiedAt: hasInventory ? LOADED_AT : null, traits: plan.traits, aggregates: plan.aggregates,
    };
  });
  return { revision: '422ece571366', resourceClasses: [], traits: [], providers, consumers: [] };
}
