/**
 * npm run bench:versus [-- flat-1000 nested-1000 claims] [--quick] [--profile] [--json FILE]
 *
 * Our server and upstream Placement 8.0.0 side by side in one run on this machine, on the same
 * PostgreSQL, loaded through the API with the same shapes (shapes.ts), queried with a new connection
 * per request as upstream's gate measures (one client, then ten, by ApacheBench without
 * keep-alive; one client's percentiles from ab's -e table), one contender after the other. Each
 * phase reports wall-clock figures and CPU per request of the server, of PostgreSQL (its own
 * database's backends) and of the rest of the host, since one wall-clock figure on a shared
 * machine proves little. Goals of issue 14 are printed as met or MISSED. With --profile, our
 * server runs under V8's profiler and each phase's functions of most self time follow the figures.
 */
import { writeFileSync } from 'node:fs';
import { BenchClient } from './http.js';
import { flatShape, nestedShape, Shape } from './shapes.js';
import { ab, AbFigures, abLatency } from './versus/ab.js';
import { Contender, startOurs, startUpstreamContender } from './versus/contenders.js';
import { cpuMeter } from './versus/process-cpu.js';
import { Latency, probe } from './measure.js';
import { abLine, countLine, goalLine, latencyLine, Phase } from './versus/report.js';
import { versusClaims } from './versus/claims.js';
import { ServerProfile } from './server-profile.js';

interface Counts { single: number; concurrent: number }
/** Upstream takes far longer per answer (docs/performance.md): it gets fewer requests than we do. */
const COUNTS: Record<'ours' | 'upstream', Counts> = { ours: { single: 300, concurrent: 1000 }, upstream: { single: 30, concurrent: 100 } };
const QUICK: Record<'ours' | 'upstream', Counts> = { ours: { single: 50, concurrent: 200 }, upstream: { single: 10, concurrent: 30 } };
/** The goals: flat 40x, nested 100x, on p50 (single client) and 10-client throughput. */
const GOALS: Record<string, number> = { 'flat-1000': 40, 'nested-1000': 100 };
const LATENCY_BUDGET_S = 120;

interface QueryFigures { single: Phase<Latency>; concurrent: Phase<AbFigures> }
type Measured = Record<string, Record<'ours' | 'upstream', QueryFigures>>;

/** The profile of `contender`'s run, if any: only our server is profiled. */
const profileOf = (contender: Contender, profile: ServerProfile | null) => (contender.name === 'ours' ? profile : null);

/** `run`'s figures and CPU; with a profile, also a window of it named `label`. */
async function measure<F>(contender: Contender, label: string, run: () => Promise<F>, profile: ServerProfile | null): Promise<Phase<F>> {
  const meter = await cpuMeter(contender.pid, contender.databaseUrl);
  const { result, cpu } = await meter.around(() => ServerProfile.within(profileOf(contender, profile), label, run));
  return { figures: result, cpu };
}

async function versusShape(shape: Shape, quick: boolean, goal: number, profile: ServerProfile | null): Promise<Measured> {
  process.stdout.write(`\n== ${shape.name}: ${shape.description}\n`);
  const contenders = [await startOurs(shape.serverEnv, profile?.nodeArgs), await startUpstreamContender(shape.serverEnv)];
  const measured: Measured = {};
  try {
    for (const c of contenders) {
      const client = new BenchClient(c.url, '1.39', false);
      const { figures: load, cpu } = await measure(c, 'load (10 clients)', () => shape.load(client), profile);
      client.close();
      process.stdout.write(countLine(c.name, 'load (10 clients)', load.providers, load.seconds, 'providers', cpu));
    }
    for (const query of [shape.query, `${shape.query}&limit=50`]) {
      const label = query === shape.query ? 'no limit' : 'limit=50';
      const byContender = {} as Measured[string];
      for (const c of contenders) {
        const counts = (quick ? QUICK : COUNTS)[c.name];
        const client = new BenchClient(c.url, '1.39', false, true);
        // What one answer holds, checked once, so a wrong answer cannot pass for a fast one.
        const answer = await probe(client, query);
        client.close();
        const single = await measure(c, `${label}, 1 client`, async (): Promise<Latency> =>
          ({ ...answer, ...await abLatency(c.url + query, counts.single, LATENCY_BUDGET_S) }), profile);
        process.stdout.write(latencyLine(c.name, `${label}, 1 client`, single));
        const concurrent = await measure(c, `${label}, 10 clients`, () => ab(c.url + query, counts.concurrent, 10), profile);
        process.stdout.write(abLine(c.name, `${label}, 10 clients`, concurrent));
        byContender[c.name] = { single, concurrent };
      }
      measured[label] = byContender;
      {
        const { ours, upstream } = byContender;
        process.stdout.write(goalLine(`${label}: single-client p50`, upstream.single.figures.p50 / ours.single.figures.p50, goal));
        process.stdout.write(goalLine(`${label}: 10-client throughput`, ours.concurrent.figures.perSecond / upstream.concurrent.figures.perSecond, goal));
      }
    }
  } finally {
    for (const c of contenders) await c.stop();
  }
  if (profile) process.stdout.write(profile.report());
  return measured;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const quick = argv.includes('--quick');
  const jsonAt = argv.indexOf('--json');
  const named = argv.filter((a, i) => !a.startsWith('--') && (jsonAt < 0 || i !== jsonAt + 1));
  const names = named.length > 0 ? named : ['flat-1000', 'nested-1000', 'claims'];
  const shapes: Record<string, () => Shape> = {
    'flat-1000': () => flatShape(quick ? 100 : 1000, 0), 'nested-1000': () => nestedShape(quick ? 50 : 1000, 0),
  };
  const reports: Record<string, unknown> = {};
  for (const name of names) {
    // A profile per workload: each starts its own server.
    const profile = ServerProfile.ifAsked(argv);
    if (name === 'claims') reports.claims = await versusClaims(quick, profile);
    else if (shapes[name]) reports[name] = await versusShape(shapes[name](), quick, GOALS[name], profile);
    else throw new Error(`unknown workload ${name}; known: ${[...Object.keys(shapes), 'claims'].join(', ')}`);
  }
  if (jsonAt >= 0) writeFileSync(argv[jsonAt + 1], JSON.stringify(reports, null, 2));
}

main().catch((error) => {
  process.stderr.write(`bench:versus failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
