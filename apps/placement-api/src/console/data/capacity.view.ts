import type { ActiveProvider } from '../../../../../libs/domain/src/index.js';
import { capacitySeries, CapacityFigures, NO_AGGREGATE } from '../../../../../libs/placement/src/capacity-metrics/index.js';

export interface ClassCapacity extends CapacityFigures {
  readonly resource_class: string;
  /** capacity - used. */
  readonly free: number;
}

export interface CapacityView {
  /** Over every provider, with the projects holding most of each class. */
  readonly resource_classes: readonly (ClassCapacity & { readonly top_projects: readonly { project_id: string; used: number }[] })[];
  /** Per aggregate (null: providers in none); a provider in several aggregates counts in each. */
  readonly aggregates: readonly { readonly aggregate: string | null; readonly resource_classes: readonly ClassCapacity[] }[];
}

const withFree = (resourceClass: string, figures: CapacityFigures): ClassCapacity =>
  ({ resource_class: resourceClass, ...figures, free: figures.capacity - figures.used });

/** The projects holding most of each class, most first (ties by project id, so the answer is stable). */
function topProjects(usage: ReadonlyMap<string, ReadonlyMap<string, number>>, top: number): Map<string, { project_id: string; used: number }[]> {
  const byClass = new Map<string, { project_id: string; used: number }[]>();
  for (const [project, classes] of usage) {
    for (const [resourceClass, used] of classes) {
      let list = byClass.get(resourceClass);
      if (!list) byClass.set(resourceClass, (list = []));
      list.push({ project_id: project, used });
    }
  }
  for (const list of byClass.values()) {
    list.sort((a, b) => b.used - a.used || a.project_id.localeCompare(b.project_id));
    list.splice(top);
  }
  return byClass;
}

/**
 * The console's capacity view from the same sums as GET /metrics' placement_inventory_* gauges
 * (capacitySeries) and the per-project tally beside the candidate index: its cost follows the
 * number of providers and projects, never the number of allocations or events.
 */
export function capacityView(
  providers: () => Iterable<ActiveProvider>, projectUsage: ReadonlyMap<string, ReadonlyMap<string, number>>, top: number,
): CapacityView {
  const tops = topProjects(projectUsage, top);
  const resourceClasses = capacitySeries(providers(), false)
    .map((sample) => ({ ...withFree(sample.labels.resource_class, sample.figures), top_projects: tops.get(sample.labels.resource_class) ?? [] }))
    .sort((a, b) => a.resource_class.localeCompare(b.resource_class));
  const aggregates = new Map<string, ClassCapacity[]>();
  for (const sample of capacitySeries(providers(), true)) {
    const aggregate = sample.labels.aggregate ?? NO_AGGREGATE;
    let list = aggregates.get(aggregate);
    if (!list) aggregates.set(aggregate, (list = []));
    list.push(withFree(sample.labels.resource_class, sample.figures));
  }
  const keys = [...aggregates.keys()].sort((a, b) => (a === NO_AGGREGATE ? 1 : b === NO_AGGREGATE ? -1 : a.localeCompare(b)));
  return {
    resource_classes: resourceClasses,
    aggregates: keys.map((key) => ({
      aggregate: key === NO_AGGREGATE ? null : key,
      resource_classes: aggregates.get(key)!.sort((a, b) => a.resource_class.localeCompare(b.resource_class)),
    })),
  };
}
