import { ActiveProvider, capacity } from '#domain/index.js';

/** One resource class's figures, summed over the providers of one series. */
export interface CapacityFigures {
  total: number;
  reserved: number;
  capacity: number;
  used: number;
}

/** One series of the placement_inventory_* gauges: its labels and its sums. */
export interface CapacitySample {
  readonly labels: { readonly resource_class: string; readonly aggregate?: string };
  readonly figures: CapacityFigures;
}

/** The label a provider in no aggregate gets, so its inventory still shows when series are split by aggregate. */
export const NO_AGGREGATE = '';

/**
 * The placement_inventory_* series from the providers' states, as GET
 * /resource_providers/{uuid}/inventories and /usages report them: total and reserved as stored,
 * capacity as upstream's (total - reserved) x allocation_ratio truncated per provider, used as the
 * provider's usage of the class. By aggregate, a provider counts once in each aggregate it is in
 * (and in NO_AGGREGATE when it is in none), so summing those series over aggregates counts a
 * provider of several aggregates several times.
 */
export function capacitySeries(providers: Iterable<ActiveProvider>, byAggregate: boolean): CapacitySample[] {
  const series = new Map<string, CapacitySample>();
  const add = (resourceClass: string, aggregate: string | undefined, inventory: ActiveProvider['inventories'][string], used: number) => {
    const key = aggregate === undefined ? resourceClass : `${resourceClass}\u0000${aggregate}`;
    let sample = series.get(key);
    if (!sample) {
      const labels = aggregate === undefined ? { resource_class: resourceClass } : { resource_class: resourceClass, aggregate };
      series.set(key, (sample = { labels, figures: { total: 0, reserved: 0, capacity: 0, used: 0 } }));
    }
    sample.figures.total += inventory.total;
    sample.figures.reserved += inventory.reserved;
    sample.figures.capacity += capacity(inventory);
    sample.figures.used += used;
  };
  for (const provider of providers) {
    const aggregates = !byAggregate ? [undefined] : provider.aggregates.length > 0 ? provider.aggregates : [NO_AGGREGATE];
    for (const [resourceClass, inventory] of Object.entries(provider.inventories)) {
      const used = provider.usages[resourceClass] ?? 0;
      for (const aggregate of aggregates) add(resourceClass, aggregate, inventory, used);
    }
  }
  return [...series.values()];
}
