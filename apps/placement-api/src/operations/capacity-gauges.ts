import { Counter, Gauge, Registry } from 'prom-client';
import type { CapacityFigures, CapacitySample, ProjectUsageSample } from '#placement/capacity-metrics/index.js';
import type { CapacityLabels } from '#platform/config.js';

/** What one scrape reads: the capacity series from the index and the usage per project. */
export interface CapacitySnapshot {
  readonly capacity: readonly CapacitySample[];
  readonly projects: readonly ProjectUsageSample[];
}

const FIGURES: readonly [keyof CapacityFigures, string][] = [
  ['total', 'Inventory total, summed over providers (GET /resource_providers/{uuid}/inventories)'],
  ['reserved', 'Inventory reserved, summed over providers'],
  ['capacity', 'Allocatable units, (total - reserved) x allocation_ratio truncated per provider as upstream, summed over providers'],
  ['used', 'Units allocated, summed over providers (GET /resource_providers/{uuid}/usages)'],
];

/**
 * Every worker of PLACEMENT_WORKERS reads these from the same database: their sum would count the
 * cloud once per worker. The largest is taken, so a worker whose read failed (no series) does
 * not empty the scrape.
 */
const SAME_IN_EVERY_WORKER = 'max';

/**
 * Registers placement_inventory_{total,reserved,capacity,used} and, when asked, placement_project_usage,
 * computed when Prometheus scrapes. The gauges' collects start in the same tick of one scrape and
 * share one snapshot, so their figures agree with each other.
 */
export function registerCapacityGauges(registry: Registry, labels: CapacityLabels, read: () => Promise<CapacitySnapshot>): void {
  // A database outage must not take the whole scrape down with it: the request and append
  // metrics matter most then. The capacity series are left out of that scrape instead.
  const guarded = () => read().catch((): CapacitySnapshot => {
    failures.inc();
    return { capacity: [], projects: [] };
  });
  let pending: Promise<CapacitySnapshot> | null = null;
  const snapshot = () => (pending ??= guarded().finally(() => (pending = null)));
  const labelNames = labels.byAggregate ? ['resource_class', 'aggregate'] : ['resource_class'];
  for (const [figure, help] of FIGURES) {
    new Gauge({
      name: `placement_inventory_${figure}`, help, labelNames, registers: [registry], aggregator: SAME_IN_EVERY_WORKER,
      async collect() {
        const { capacity } = await snapshot();
        // Start afresh each scrape, so a class or aggregate that went away stops being reported.
        this.reset();
        for (const sample of capacity) this.set(sample.labels, sample.figures[figure]);
      },
    });
  }
  if (labels.projectUsage) new Gauge({
    name: 'placement_project_usage',
    help: "Units a project's consumers hold, by class, summed over providers (GET /usages?project_id=)",
    labelNames: ['project_id', 'resource_class'], registers: [registry], aggregator: SAME_IN_EVERY_WORKER,
    async collect() {
      const { projects } = await snapshot();
      this.reset();
      for (const sample of projects) this.set(sample.labels, sample.used);
    },
  });
  // Registered after the gauges, whose collects have started this scrape's snapshot by now: it
  // waits for that, so a failure shows in the very scrape that left the series out.
  const failures = new Counter({
    name: 'placement_capacity_scrape_failures_total',
    help: 'Scrapes whose capacity and project usage series could not be computed (the database did not answer); they were left out',
    registers: [registry],
    async collect() {
      await pending;
    },
  });
}
