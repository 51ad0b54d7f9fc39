import type { ActiveProvider } from '#domain/index.js';
import { capacitySeries, CapacityFigures, NO_AGGREGATE } from '#placement/capacity-metrics/index.js';
import { ClassShares, ProjectShare } from './top-projects.js';

interface ClassCapacity extends CapacityFigures {
  readonly resource_class: string;
  /** capacity - used. */
  readonly free: number;
  /** The projects holding most of the class here, most first. */
  readonly top_projects: readonly ProjectShare[];
}

export interface CapacityView {
  /** Over every provider. */
  readonly resource_classes: readonly ClassCapacity[];
  /** Per aggregate (null: providers in none); a provider in several aggregates counts in each. */
  readonly aggregates: readonly { readonly aggregate: string | null; readonly resource_classes: readonly ClassCapacity[] }[];
}

/** What the view reads of the candidate index and the per-project tally kept beside it. */
export interface CapacitySource {
  providers(): Iterable<ActiveProvider>;
  /** Per project, per class, the units held (GET /usages' sums). */
  readonly projectUsage: ReadonlyMap<string, ReadonlyMap<string, number>>;
  projectOf(consumer: string): string | undefined;
}

const byClass = (a: ClassCapacity, b: ClassCapacity) => a.resource_class.localeCompare(b.resource_class);
const aggregatesOf = (provider: ActiveProvider) => (provider.aggregates.length > 0 ? provider.aggregates : [NO_AGGREGATE]);

/** Per aggregate, what each project's consumers hold on the aggregate's providers. */
function sharesByAggregate(source: CapacitySource): Map<string, ClassShares> {
  const shares = new Map<string, ClassShares>();
  for (const provider of source.providers()) {
    for (const [consumer, holding] of Object.entries(provider.allocations)) {
      const project = source.projectOf(consumer);
      if (project === undefined) continue;
      for (const aggregate of aggregatesOf(provider)) {
        let tally = shares.get(aggregate);
        if (!tally) shares.set(aggregate, (tally = new ClassShares()));
        for (const [resourceClass, units] of Object.entries(holding)) tally.add(resourceClass, project, units);
      }
    }
  }
  return shares;
}

/**
 * The console's capacity view: the sums of GET /metrics' placement_inventory_* gauges
 * (capacitySeries), each with the projects holding most of it. Cost follows the state (providers,
 * the allocations they hold now, projects), never the log.
 */
export function capacityView(source: CapacitySource, top: number): CapacityView {
  const overall = new ClassShares();
  for (const [project, classes] of source.projectUsage) for (const [resourceClass, used] of classes) overall.add(resourceClass, project, used);
  const resourceClasses = capacitySeries(source.providers(), false).map(({ labels, figures }): ClassCapacity => ({
    resource_class: labels.resource_class, ...figures, free: figures.capacity - figures.used, top_projects: overall.top(labels.resource_class, top),
  })).sort(byClass);

  const shares = sharesByAggregate(source);
  const aggregates = new Map<string, ClassCapacity[]>();
  for (const { labels, figures } of capacitySeries(source.providers(), true)) {
    const aggregate = labels.aggregate ?? NO_AGGREGATE;
    let list = aggregates.get(aggregate);
    if (!list) aggregates.set(aggregate, (list = []));
    const topProjects = shares.get(aggregate)?.top(labels.resource_class, top) ?? [];
    list.push({ resource_class: labels.resource_class, ...figures, free: figures.capacity - figures.used, top_projects: topProjects });
  }
  const keys = [...aggregates.keys()].sort((a, b) => (a === NO_AGGREGATE ? 1 : b === NO_AGGREGATE ? -1 : a.localeCompare(b)));
  return {
    resource_classes: resourceClasses,
    aggregates: keys.map((key) => ({ aggregate: key === NO_AGGREGATE ? null : key, resource_classes: aggregates.get(key)!.sort(byClass) })),
  };
}
