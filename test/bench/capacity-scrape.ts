/**
 * npm run bench:scrape — what the capacity gauges cost one /metrics scrape of a 10,000-provider cloud.
 *
 * In process, no HTTP and no database: 10,000 compute nodes (VCPU, MEMORY_MB, DISK_GB, a third
 * of them in one of 50 aggregates) in a candidate index, held by 40,000 consumers (4 per node,
 * 3 classes each) of 500 projects, as the index and its project tally keep them. Prints the
 * median and worst of 50 scrapes of a registry holding only these gauges. Goal: under 50 ms.
 */
import { performance } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { registerCapacityGauges } from '#placement-api/operations/capacity-gauges.js';
import { activeProvider } from '#placement/candidates/index/plain-index.js';
import { ProjectTally } from '#placement/candidates/index/project-tally.js';
import { ProviderIndex } from '#placement/candidates/index/provider-index.js';
import { capacitySeries, indexedProviders, projectUsage } from '#placement/capacity-metrics/index.js';

const PROVIDERS = 10_000;
const CONSUMERS_PER_PROVIDER = 4;
const AGGREGATES = 50;
const PROJECTS = 500;
const SCRAPES = 50;

function cloud(): { index: ProviderIndex; projects: ProjectTally } {
  const index = new ProviderIndex(), projects = new ProjectTally();
  for (let i = 0; i < PROVIDERS; i++) {
    const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const base = activeProvider({
      uuid,
      inventories: { VCPU: { total: 64, reserved: 2, allocation_ratio: 4 }, MEMORY_MB: { total: 262_144, reserved: 4096, allocation_ratio: 1.5 }, DISK_GB: { total: 2000 } },
      aggregates: i % 3 === 0 ? [`aggregate-${i % AGGREGATES}`] : [],
    });
    const allocations: Record<string, Record<string, number>> = {};
    for (let c = 0; c < CONSUMERS_PER_PROVIDER; c++) {
      const consumer = `${uuid}-${c}`;
      allocations[consumer] = { VCPU: 2, MEMORY_MB: 4096, DISK_GB: 20 };
      projects.set(consumer, `project-${(i * CONSUMERS_PER_PROVIDER + c) % PROJECTS}`, { [uuid]: allocations[consumer] });
    }
    const n = CONSUMERS_PER_PROVIDER;
    index.put(uuid, { ...base, allocations, usages: { VCPU: 2 * n, MEMORY_MB: 4096 * n, DISK_GB: 20 * n } });
  }
  return { index, projects };
}

async function measure(byAggregate: boolean): Promise<void> {
  const { index, projects } = cloud();
  const registry = new Registry();
  registerCapacityGauges(registry, { byAggregate, projectUsage: true }, async () => ({
    capacity: capacitySeries(indexedProviders(index), byAggregate), projects: projectUsage(projects),
  }));
  await registry.metrics();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < SCRAPES; i++) {
    const started = performance.now();
    bytes = (await registry.metrics()).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`${PROVIDERS} providers, ${PROVIDERS * CONSUMERS_PER_PROVIDER} consumers in ${PROJECTS} projects, by aggregate ${byAggregate}: `
    + `median ${median.toFixed(1)} ms, worst ${times.at(-1)!.toFixed(1)} ms, ${bytes} bytes`);
}

(async () => {
  await measure(false);
  await measure(true);
})();
