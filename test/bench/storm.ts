/**
 * npm run bench:storm -- [--shape flat|nested] [--providers N] [--instances N] [--upstream-instances N]
 *   [--schedulers N] [--servers ours,upstream] [--projects N] [--wide] [--profile] [--trace] [--load api|import] [--workers N]
 *   [--warmup N] [--weigh-ms N] [--seed N] [--json FILE] [--against MAIN_JS [--slices N]]
 *
 * Issue 30's boot storm, ours and upstream Placement 8.0.0 side by side in one run on the same
 * cloud: N schedulers booting instances of nine flavors as Nova's scheduler does (ask for
 * candidates, weigh by free RAM, claim one of the five best, ask again on a 409), every request on
 * a new connection. The cloud is made from a seed and loaded into ours through the API, then
 * written into upstream's empty database by `placement-admin export` (storm/export.ts). Each
 * server storms alone; its figures are the rate, the GET and PUT percentiles, 409s and retries,
 * CPU per scheduled instance of its process tree and of PostgreSQL, round trips, GET / and memory
 * meanwhile, and a consistency check. Ours' requests are then played to a bare node:http server
 * making one PostgreSQL round trip each (the stack's floor). --wide adds issue 30's wide tree,
 * asked about while the storm runs. --trace joins each of ours' requests as its server saw it to
 * the scheduler's view of it, on the clock they share, and says where the time went. --against
 * storms another build of ours (its main.js) in turns with this one instead (storm/against.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { seededRandom } from '../support/seeded-random.js';
import { createTestDatabase } from '../support/database.js';
import { BenchClient } from './http.js';
import { Contender, startOurs, startUpstreamContender } from './versus/contenders.js';
import { ServerProfile } from './server-profile.js';
import { stormCloud, TreePlan, wideTree } from './storm/cloud.js';
import { cloudState } from './storm/cloud-state.js';
import { importUpstreamState } from './upstream-import.js';
import { exportTo } from './storm/export.js';
import { ServerStorm, summaryOf, wideWindow, within } from './storm/figures.js';
import { FLAT_MIX, NESTED_MIX } from './storm/flavors.js';
import { loadCloud } from './storm/load.js';
import { parseStormOptions, StormOptions } from './storm/options.js';
import { candidatesPerFlavor, countDifferences } from './storm/probe.js';
import { againstLines, comparisonLines, floorLines, stormLines } from './storm/report.js';
import { runAgainst } from './storm/against.js';
import { Floor, stackFloor, trafficOf } from './storm/floor.js';
import { readServerTimes, traceLines } from './storm/request-trace.js';
import { Instance, planInstances, storm } from './storm/scheduler.js';
import { TRACE_ENV } from './storm/server-trace.js';
import { settle } from './storm/statistics.js';
import { StormSubject } from './storm/subject.js';
import { watchServer } from './storm/watch.js';
import { askWide, wideProblems } from './storm/wide.js';
import { fixHeapForServing } from '#placement-api/operations/serving-heap.js';

const WIDE_WIDTH = 10;
/** The wide questions come once the storm is under way. */
const WIDE_DELAY_MS = 500;
const say = (line: string) => process.stdout.write(`${line}\n`);
const load = () => loadavg().map((n) => n.toFixed(2)).join(', ');

async function stormOn(
  contender: Contender, warmup: readonly Instance[], instances: readonly Instance[], options: StormOptions, profile: ServerProfile | null,
): Promise<ServerStorm> {
  const subject = await StormSubject.warm(contender, warmup, instances.length, options);
  try {
    await settle();
    const meter = await subject.begin();
    const started = performance.now();
    const watch = watchServer(subject.side, contender.pid, started);
    const wide = options.wide ? askWide(subject.side, WIDE_WIDTH, started, WIDE_DELAY_MS) : Promise.resolve([]);
    let measured;
    const generatorBefore = process.cpuUsage();
    try {
      measured = await meter.around(() => ServerProfile.within(profile, 'storm', () => storm(subject.client, instances, options.schedulers, options.seed, started, options.weighMs)));
    } catch (error) {
      await watch.stop();
      throw error;
    }
    const generator = process.cpuUsage(generatorBefore);
    const loadGeneratorCpu = (generator.user + generator.system) / 1000;
    const wideAsked = await wide;
    const watched = await watch.stop();
    await subject.end();
    await settle();
    return await subject.report(instances.length, { ...measured, loadGeneratorCpu, watched, wide: wideAsked });
  } finally {
    subject.close();
  }
}

async function main(): Promise<void> {
  // The schedulers read every answer as one string of hundreds of kilobytes, which V8 allocates
  // in the old generation at once. Under V8's own limit, set barely above what lives, that made
  // full collections many times a second, each marking the cloud's model this process holds (the
  // larger, the larger the cloud) on the cores the servers share. The servers' own settings for a
  // steady load apply as well: the old generation grows to twice what lives, and no allocation
  // site is judged long-lived (docs/performance.md).
  fixHeapForServing();
  const options = parseStormOptions(process.argv.slice(2));
  const trees: TreePlan[] = stormCloud(options.shape, options.providers, options.seed);
  if (options.wide) trees.push(wideTree(seededRandom(options.seed + 1), WIDE_WIDTH));
  const mix = options.shape === 'flat' ? FLAT_MIX : NESTED_MIX;
  const instances = planInstances(mix, Math.max(options.instances, options.upstreamInstances), options.projects, options.seed + 2);
  // Its own projects (another seed), so each project's usages still equal its claims.
  const warmup = planInstances(mix, options.warmup, options.projects, options.seed + 4);
  // Upstream compiles nothing as it goes: a share in proportion to its instances, at most one
  // round of them, warms its database's backends.
  const upstreamWarmup = warmup.slice(0, Math.min(options.upstreamInstances, Math.ceil((options.warmup * options.upstreamInstances) / Math.max(1, options.instances))));
  const providers = trees.reduce((n, tree) => n + tree.length, 0);
  say(`== storm: ${options.shape}, ${options.providers} computes (${providers} providers${options.wide ? ', with the wide tree' : ''}), `
    + `${options.schedulers} schedulers${options.weighMs > 0 ? ` weighing ${options.weighMs} ms before each claim` : ''}${options.workers > 0 ? `, PLACEMENT_WORKERS=${options.workers}` : ''}, ${options.projects === 0 ? 'a project per instance' : `${options.projects} project${options.projects === 1 ? '' : 's'}`}, seed ${options.seed}; load average ${load()}`);

  const env: Record<string, string> = options.workers > 0 ? { PLACEMENT_WORKERS: String(options.workers) } : {};
  if (options.against !== undefined) {
    const { storms, turns } = await runAgainst({ ...options, against: options.against }, trees, mix, warmup, instances.slice(0, options.instances), env, say);
    for (const s of storms) for (const line of stormLines(s)) process.stdout.write(line);
    for (const line of againstLines(turns, options.against)) process.stdout.write(line);
    say(`  load average at the end ${load()}`);
    if (options.json) writeFileSync(options.json, JSON.stringify({ options, reports: storms.map(summaryOf), turns }, null, 2));
    if (storms.some((s) => s.problems.length > 0 || s.result.failed > 0)) process.exitCode = 1;
    return;
  }
  const reports: ServerStorm[] = [];
  const counts: Record<string, Record<string, number | string>> = {};
  const profile = options.profile ? new ServerProfile() : null;
  let floor: Floor | null = null;
  const nodeArgs = [...(profile?.nodeArgs ?? [])];
  const traceDir = options.trace ? mkdtempSync(join(tmpdir(), 'pl-storm-trace-')) : null;
  if (traceDir) {
    env[TRACE_ENV] = join(traceDir, 'server');
    nodeArgs.push('--require', resolve(__dirname, 'storm/server-trace.js'));
  }
  // Imported: the cloud is in the database before ours starts (which is then kept at its stop, and dropped here).
  const imported = options.load === 'import' ? await createTestDatabase('pl_bench') : null;
  let ours: Contender | null = null;
  let upstream: Contender | null = null;
  try {
    if (imported) {
      const { seconds } = await importUpstreamState(cloudState(trees), imported.url);
      say(`  ours     imported as an upstream database (placement-admin import): ${providers} providers in ${seconds.toFixed(1)} s`);
    }
    ours = await startOurs(env, nodeArgs, imported?.url);
    if (!imported) {
      const loader = new BenchClient(ours.url, '1.39', true);
      const t0 = performance.now();
      const requests = await loadCloud(loader, trees).finally(() => loader.close());
      const seconds = (performance.now() - t0) / 1000;
      say(`  ours     loaded through the API: ${providers} providers, ${requests} requests in ${seconds.toFixed(1)} s (${(providers / seconds).toFixed(1)} providers/s)`);
    }
    if (options.servers.includes('upstream')) {
      upstream = await startUpstreamContender();
      say(`  upstream exported from ours in ${(await exportTo(ours.databaseUrl, upstream.databaseUrl)).toFixed(1)} s`);
    }
    for (const contender of upstream ? [ours, upstream] : [ours]) {
      const probe = new BenchClient(contender.url, '1.36', false, true);
      counts[contender.name] = await candidatesPerFlavor(probe, mix).finally(() => probe.close());
    }
    say(`  candidates per flavor before the storm (limit=1000): ${Object.entries(counts.ours).map(([name, n]) => `${name} ${n}`).join(', ')}`);
    if (upstream) {
      const differences = countDifferences(counts.ours, counts.upstream);
      say(`  upstream ${differences.length === 0 ? 'finds as many' : `finds otherwise (ours/upstream): ${differences.join(', ')}`}`);
    }
    if (options.servers.includes('ours')) {
      reports.push(await stormOn(ours, warmup, instances.slice(0, options.instances), options, profile));
      for (const line of stormLines(reports[reports.length - 1])) process.stdout.write(line);
    }
    // Upstream storms alone: ours, done, gives the cores back.
    await ours.stop();
    ours = null;
    const mine = reports.find((r) => r.server === 'ours');
    if (mine) {
      floor = await stackFloor(trafficOf(mine.result), mine.result.acknowledged.length, options.schedulers);
      for (const line of floorLines(mine, floor)) process.stdout.write(line);
    }
    // The server wrote its profile and its trace as it exited.
    if (profile) process.stdout.write(profile.report(20));
    if (traceDir && mine) {
      const server = readServerTimes(env[TRACE_ENV]);
      const traced = [
        { what: 'GET candidates', method: 'GET', timed: mine.result.gets }, { what: 'PUT allocations', method: 'PUT', timed: mine.result.puts },
      ];
      // And the same requests while the wide tree was asked about: which part its answer lengthened.
      const window = wideWindow(mine);
      if (window) {
        traced.push(...traced.map(({ what, method, timed }) => ({ what: `${what} while the wide tree was asked`, method, timed: within(timed, window.from, window.to) })));
      }
      for (const line of traceLines(server, traced)) process.stdout.write(line);
    }
    if (upstream) {
      reports.push(await stormOn(upstream, upstreamWarmup, instances.slice(0, options.upstreamInstances), options, null));
      for (const line of stormLines(reports[reports.length - 1])) process.stdout.write(line);
    }
  } finally {
    await ours?.stop();
    await upstream?.stop();
    await imported?.drop();
    if (traceDir) rmSync(traceDir, { recursive: true, force: true });
  }
  const [mine, theirs] = [reports.find((r) => r.server === 'ours'), reports.find((r) => r.server === 'upstream')];
  if (mine && theirs) for (const line of comparisonLines(mine, theirs)) process.stdout.write(line);
  say(`  load average at the end ${load()}`);
  if (options.json) writeFileSync(options.json, JSON.stringify({ options, candidatesPerFlavor: counts, reports: reports.map(summaryOf), floorMsPerInstance: floor }, null, 2));
  // Upstream's errors are its own (reported above); ours must have none, nor either server an inconsistency.
  const oursFailed = (r: ServerStorm) => r.server === 'ours' && (r.result.failed > 0 || r.wide.some((w) => wideProblems(w).length > 0));
  if (reports.some((r) => r.problems.length > 0 || oursFailed(r))) process.exitCode = 1;
}

main().catch((error) => {
  process.stderr.write(`bench:storm failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
