import { writeFileSync } from 'node:fs';
import { startBenchServer } from './bench-server.js';
import { BenchClient } from './http.js';
import { breakdown, Breakdown } from './in-process.js';
import { indexFromLog } from './log-index.js';
import { latency, Latency, throughput, Throughput } from './measure.js';
import { LoadFigures, SHAPES, Shape } from './shapes.js';
import { CLAIMS_WORKLOAD, ClaimsReport, runClaims } from './claims.js';
import { ServerProfile } from './server-profile.js';

/**
 * npm run bench [-- shape ...] [--quick] [--profile] [--json FILE]
 * The workload `claims` (claims.ts, also npm run bench:claims) is selected the same way.
 * Reproduces upstream's perfload jobs (../shared/reference/perfload-shapes.md) against the built
 * server on a fresh database per shape. --quick runs flat-1000 and wide-8 with fewer requests.
 * --profile: each shape's server runs under V8's profiler, and its phases' functions of most self
 * time follow its figures (server-profile.ts).
 */
interface ShapeReport {
  readonly shape: string;
  readonly description: string;
  readonly load: LoadFigures;
  readonly phases: { readonly query: string; readonly single: Latency; readonly concurrent: Throughput; readonly inProcess: Breakdown }[];
}

const LATENCY_BUDGET_MS = 60_000;

function parseArgs(argv: string[]) {
  const quick = argv.includes('--quick');
  const jsonAt = argv.indexOf('--json');
  const json = jsonAt >= 0 ? argv[jsonAt + 1] : undefined;
  const named = argv.filter((a, i) => !a.startsWith('--') && (jsonAt < 0 || i !== jsonAt + 1));
  const unknown = named.filter((n) => !SHAPES[n] && n !== CLAIMS_WORKLOAD);
  if (unknown.length > 0) throw new Error(`unknown shape(s) ${unknown.join(', ')}; known: ${[...Object.keys(SHAPES), CLAIMS_WORKLOAD].join(', ')}`);
  const names = named.length > 0 ? named : quick ? ['flat-1000', 'wide-8'] : [...Object.keys(SHAPES), CLAIMS_WORKLOAD];
  return { names, quick, json };
}

const f = (n: number, digits = 1) => n.toFixed(digits);

async function runShape(shape: Shape, quick: boolean, argv: readonly string[]): Promise<ShapeReport> {
  const profile = ServerProfile.ifAsked(argv);
  const within = <T>(label: string, work: () => Promise<T>) => ServerProfile.within(profile, label, work);
  const server = await startBenchServer(shape.serverEnv, profile?.nodeArgs);
  const client = new BenchClient(server.url);
  try {
    process.stdout.write(`\n== ${shape.name}: ${shape.description}\n`);
    const load = await shape.load(client);
    process.stdout.write(`load: ${load.providers} providers, ${load.requests} requests in ${f(load.seconds)} s = `
      + `${f(load.providers / load.seconds)} providers/s, ${f(load.requests / load.seconds)} requests/s\n`);
    if (load.claims) process.stdout.write(`claims: ${load.claims.count} in ${f(load.claims.seconds)} s = ${f(load.claims.count / load.claims.seconds)} claims/s\n`);
    const { index, names } = await indexFromLog(server.databaseUrl);
    const phases = [];
    for (const query of [shape.query, `${shape.query}&limit=50`]) {
      const label = query.endsWith('&limit=50') ? 'limit=50' : 'no limit';
      const single = await within(`${label}, 1 client`,
        () => latency(client, query, quick ? Math.min(50, shape.singleRequests) : shape.singleRequests, LATENCY_BUDGET_MS));
      const concurrent = await within(`${label}, 10 clients`,
        () => throughput(client, query, quick ? Math.min(100, shape.concurrentRequests) : shape.concurrentRequests, 10, server.child.pid));
      const inProcess = breakdown(index, names, query, quick ? 10 : 30);
      process.stdout.write(`${label.padEnd(9)} ${single.candidates} candidates, ${f(single.bytes / 1024)} KB | single client (${single.requests}): `
        + `p50 ${f(single.p50, 2)} ms, p95 ${f(single.p95, 2)} ms, p99 ${f(single.p99, 2)} ms | 10 clients (${concurrent.requests}): `
        + `${f(concurrent.perSecond)} req/s, server CPU ${concurrent.serverCpuMs === null ? '?' : f(concurrent.serverCpuMs, 2)} ms/req | in process: search ${f(inProcess.searchMs, 2)} ms, JSON ${f(inProcess.serializeMs, 2)} ms\n`);
      phases.push({ query, single, concurrent, inProcess });
    }
    return { shape: shape.name, description: shape.description, load, phases };
  } finally {
    client.close();
    await server.stop();
    if (profile) process.stdout.write(profile.report());
  }
}

async function main(): Promise<void> {
  const { names, quick, json } = parseArgs(process.argv.slice(2));
  const reports: (ShapeReport | ClaimsReport)[] = [];
  for (const name of names) reports.push(name === CLAIMS_WORKLOAD ? await runClaims(quick) : await runShape(SHAPES[name](), quick, process.argv));
  if (json) writeFileSync(json, JSON.stringify(reports, null, 2));
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
