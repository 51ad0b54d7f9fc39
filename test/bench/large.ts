/**
 * npm run bench:large [-- flat-100000 ironic-50000] [--scale F] [--keep]
 * Clouds beyond the gate's shapes (issue 14): each is built as an upstream Placement database,
 * imported as an operator would (`placement-admin import`), served by the built server, and its
 * queries timed by one client on a new connection per request, with the server's CPU per request.
 * --scale 0.1 builds a tenth of each cloud, for a quick look; --keep leaves each database for
 * another look (its name is printed).
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ADMIN_URL } from '../support/database.js';
import { startBenchServer } from './bench-server.js';
import { BenchClient } from './http.js';
import { flatCloud, ironicCloud, LargeCloud } from './large-clouds.js';
import { latency } from './measure.js';
import { importUpstreamState } from './upstream-import.js';
import { cpuMeter } from './versus/process-cpu.js';

const CLOUDS: Record<string, (scale: number) => LargeCloud> = {
  'flat-100000': (scale) => flatCloud(Math.round(100_000 * scale)),
  'ironic-50000': (scale) => ironicCloud(Math.round(50_000 * scale)),
};
const REQUESTS = 30;
const f = (n: number, digits = 1) => n.toFixed(digits);

async function benchCloud(cloud: LargeCloud, keep: boolean): Promise<void> {
  process.stdout.write(`\n== ${cloud.name}: ${cloud.description}\n`);
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const name = `pl_bench_large_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    const imported = (await importUpstreamState(cloud.state, url.toString())).seconds;
    process.stdout.write(`  imported ${cloud.state.providers.length} providers in ${f(imported)} s\n`);
    const started = performance.now();
    const server = await startBenchServer({ PLACEMENT_MAX_ALLOCATION_CANDIDATES: '-1' }, [], 300_000, url.toString());
    const client = new BenchClient(server.url, '1.39', false);
    try {
      await client.expect('GET', cloud.queries[0].path, undefined, [200]);
      process.stdout.write(`  server answered its first candidates ${f((performance.now() - started) / 1000, 2)} s after start\n`);
      for (const query of cloud.queries) {
        const meter = await cpuMeter(server.child.pid!, server.databaseUrl);
        const { result, cpu } = await meter.around(() => latency(client, query.path, REQUESTS, 120_000));
        process.stdout.write(`  ${query.label.padEnd(36)} ${result.candidates} candidates, ${f(result.bytes / 1024)} KB: `
          + `p50 ${f(result.p50, 2)} ms, p95 ${f(result.p95, 2)} ms | CPU/req server ${f(cpu.server / result.requests, 2)} ms + PostgreSQL ${f(cpu.database / result.requests, 2)} ms`
          + ` | goal p50 < ${query.goalMs} ms: ${result.p50 < query.goalMs ? 'met' : 'MISSED'}\n`);
      }
    } finally {
      client.close();
      await server.stop();
    }
  } finally {
    if (keep) process.stdout.write(`  kept database ${name}\n`);
    else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const scaleAt = argv.indexOf('--scale');
  const scale = scaleAt >= 0 ? Number(argv[scaleAt + 1]) : 1;
  const named = argv.filter((a, i) => !a.startsWith('--') && (scaleAt < 0 || i !== scaleAt + 1));
  for (const name of named.length > 0 ? named : Object.keys(CLOUDS)) {
    if (!CLOUDS[name]) throw new Error(`unknown cloud ${name}; known: ${Object.keys(CLOUDS).join(', ')}`);
    await benchCloud(CLOUDS[name](scale), argv.includes('--keep'));
  }
}

main().catch((error) => {
  process.stderr.write(`bench:large failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
