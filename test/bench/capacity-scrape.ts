/**
 * npm run bench:scrape — what the capacity gauges cost one /metrics scrape of a 10,000-provider cloud.
 *
 * In process, no HTTP and no database: 10,000 compute nodes (VCPU, MEMORY_MB, DISK_GB, a third
 * of them in one of 50 aggregates) with usage in a candidate index, and 500 projects' usage
 * standing in for the one aggregate SQL, which is timed apart on a throw-away database (the test
 * PostgreSQL, TEST_DATABASE_ADMIN_URL) holding 40,000 consumers x 3 classes in 500 projects.
 * Prints the median and worst of 50 scrapes of a registry holding only these gauges.
 * Goal: under 50 ms.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { Registry } from 'prom-client';
import { registerCapacityGauges } from '../../apps/placement-api/src/operations/capacity-gauges.js';
import { indexOf, PlainProvider } from '../../libs/placement/src/candidates/index/plain-index.js';
import { capacitySeries, indexedProviders, projectUsage, ProjectUsageSample } from '../../libs/placement/src/capacity-metrics/index.js';
import { createTestDatabase } from '../support/database.js';

const PROVIDERS = 10_000;
const AGGREGATES = 50;
const PROJECTS = 500;
const SCRAPES = 50;

function cloud(): PlainProvider[] {
  const providers: PlainProvider[] = [];
  for (let i = 0; i < PROVIDERS; i++) {
    providers.push({
      uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      inventories: { VCPU: { total: 64, reserved: 2, allocation_ratio: 4 }, MEMORY_MB: { total: 262_144, reserved: 4096, allocation_ratio: 1.5 }, DISK_GB: { total: 2000 } },
      used: { VCPU: i % 97, MEMORY_MB: (i % 97) * 2048, DISK_GB: (i % 97) * 20 },
      aggregates: i % 3 === 0 ? [`aggregate-${i % AGGREGATES}`] : [],
    });
  }
  return providers;
}

const projects: ProjectUsageSample[] = [];
for (let p = 0; p < PROJECTS; p++) {
  for (const resource_class of ['VCPU', 'MEMORY_MB', 'DISK_GB']) projects.push({ labels: { project_id: `project-${p}`, resource_class }, used: p * 7 });
}

async function measure(byAggregate: boolean): Promise<void> {
  const index = indexOf(cloud());
  const registry = new Registry();
  registerCapacityGauges(registry, byAggregate, async () => ({ capacity: capacitySeries(indexedProviders(index), byAggregate), projects }));
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
  console.log(`${PROVIDERS} providers, by aggregate ${byAggregate}: median ${median.toFixed(1)} ms, worst ${times.at(-1)!.toFixed(1)} ms, ${bytes} bytes`);
}

/** The read models' two tables, filled in one statement each, then the scrape's SQL timed. */
async function measureSql(): Promise<void> {
  const db = await createTestDatabase('pl_bench');
  const pool = new Pool({ connectionString: db.url });
  try {
    await pool.query(`CREATE TABLE rm_consumers (uuid text PRIMARY KEY, project_id text NOT NULL);
      CREATE TABLE rm_allocations (consumer_uuid text NOT NULL, provider_uuid text NOT NULL, resource_class text NOT NULL, used integer NOT NULL,
        PRIMARY KEY (consumer_uuid, provider_uuid, resource_class))`);
    await pool.query(`INSERT INTO rm_consumers SELECT 'c' || i, 'project-' || (i % ${PROJECTS}) FROM generate_series(1, 40000) i`);
    await pool.query(`INSERT INTO rm_allocations SELECT 'c' || i, 'p' || (i % ${PROVIDERS}), rc, 1 + i % 7
      FROM generate_series(1, 40000) i, unnest(ARRAY['VCPU', 'MEMORY_MB', 'DISK_GB']) rc`);
    await pool.query('ANALYZE');
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      await projectUsage(pool);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`project usage SQL over 120,000 allocation rows: median ${times[10].toFixed(1)} ms, worst ${times.at(-1)!.toFixed(1)} ms`);
  } finally {
    await pool.end();
    await db.drop();
  }
}

(async () => {
  await measure(false);
  await measure(true);
  await measureSql().catch((error) => console.log(`project usage SQL not timed (no test PostgreSQL): ${(error as Error).message}`));
})();
