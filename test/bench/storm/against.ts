import { databaseStatements } from '../claims-snapshot.js';
import { BenchClient } from '../http.js';
import { Contender, startOurs } from '../versus/contenders.js';
import { cpuMeter, CpuSplit } from '../versus/process-cpu.js';
import { checkStorm } from './check.js';
import type { TreePlan } from './cloud.js';
import type { Flavor } from './flavors.js';
import { loadCloud } from './load.js';
import { candidatesPerFlavor, countDifferences } from './probe.js';
import type { ServerStorm, Turn } from './figures.js';
import type { StormOptions } from './options.js';
import { Instance, storm, StormResult } from './scheduler.js';
import { settle, transactionsOf } from './statistics.js';
import { warmUp, WarmedUp } from './warm-up.js';
import { watchServer } from './watch.js';

/** This build, then the one it is measured against. */
const BUILDS = ['ours', 'against'] as const;

/**
 * This build and the one `options.against` names, each on a database of its own loaded through
 * the API with the same cloud, stormed in turns; `say` tells how it goes. Both must find as many
 * candidates per flavor, or the builds answer otherwise and their costs are not comparable.
 */
export async function runAgainst(
  options: StormOptions & { against: string }, trees: readonly TreePlan[], mix: readonly Flavor[], warmup: readonly Instance[],
  instances: readonly Instance[], env: Record<string, string>, say: (line: string) => void,
): Promise<{ storms: ServerStorm[]; turns: Turn[] }> {
  const running: Contender[] = [];
  try {
    for (const entry of [undefined, options.against]) running.push(await startOurs(env, [], undefined, entry));
    const counts: Record<string, number | string>[] = [];
    for (const [i, contender] of running.entries()) {
      const loader = new BenchClient(contender.url, '1.39', true);
      const requests = await loadCloud(loader, trees).finally(() => loader.close());
      const probe = new BenchClient(contender.url, '1.36', false, true);
      counts.push(await candidatesPerFlavor(probe, mix).finally(() => probe.close()));
      say(`  ${BUILDS[i].padEnd(8)} loaded through the API: ${requests} requests; candidates per flavor: ${Object.entries(counts[i]).map(([name, n]) => `${name} ${n}`).join(', ')}`);
    }
    const differences = countDifferences(counts[0], counts[1]);
    if (differences.length > 0) throw new Error(`the builds find otherwise (ours/against): ${differences.join(', ')}`);
    return await stormAgainst([running[0], running[1]], warmup, instances, options);
  } finally {
    for (const contender of running) await contender.stop();
  }
}

/** One build's side of the run. */
interface Side {
  readonly name: 'ours' | 'against';
  readonly contender: Contender;
  readonly client: BenchClient;
  /** GET / meanwhile, /metrics and the check's reads, as in a storm of one build. */
  readonly side: BenchClient;
  readonly parts: StormResult[];
  readonly cpu: CpuSplit[];
  loadGeneratorCpu: number;
}

/**
 * Two builds of ours stormed in turns (`--against`): each warmed up as a storm of one build is,
 * then the storm's instances cut into `slices` turns, every turn booted on one build and then
 * the same instances on the other, which goes first alternating. Each build has its own copy of
 * the cloud, so both meet the same fill. Runs of one build after the other, minutes apart, differ
 * by more than a change is worth on this shared VM, whose speed drifts within the hour; turns of
 * a second or two share the drift, and so does each pair's ratio (figures.ts, pairedRatios).
 * PostgreSQL's CPU is its whole cluster's, as in every bench: the build whose turn it is, alone.
 */
export async function stormAgainst(
  builds: readonly [Contender, Contender], warmup: readonly Instance[], instances: readonly Instance[], options: StormOptions,
): Promise<{ storms: ServerStorm[]; turns: Turn[] }> {
  const sides: Side[] = builds.map((contender, i) => ({
    name: BUILDS[i], contender, client: new BenchClient(contender.url, '1.36', false, true), side: new BenchClient(contender.url, '1.39', false, true),
    parts: [], cpu: [], loadGeneratorCpu: 0,
  }));
  try {
    const warmed: WarmedUp[] = [];
    for (const s of sides) warmed.push(await warmUp(s.client, warmup, instances.length, options.schedulers, options.seed + 3));
    await settle();
    const statementsBefore = await Promise.all(sides.map((s) => databaseStatements(s.side)));
    const transactionsBefore = await Promise.all(sides.map((s) => transactionsOf(s.contender.databaseUrl)));
    const meters = await Promise.all(sides.map((s) => cpuMeter(s.contender.pid, s.contender.databaseUrl)));
    const started = performance.now();
    const watches = sides.map((s) => watchServer(s.side, s.contender.pid, started));
    const turns: Turn[] = [];
    const stopWatching = () => Promise.all(watches.map((w) => w.stop()));
    try {
      for (let k = 0; k < options.slices; k++) {
        const slice = instances.slice(Math.floor((k * instances.length) / options.slices), Math.floor(((k + 1) * instances.length) / options.slices));
        for (const i of k % 2 === 0 ? [0, 1] : [1, 0]) {
          const s = sides[i];
          const generatorBefore = process.cpuUsage();
          // Its own clock: a build's seconds are its turns' summed.
          const { result, cpu } = await meters[i].around(() => storm(s.client, slice, options.schedulers, options.seed + k, performance.now(), options.weighMs));
          const generator = process.cpuUsage(generatorBefore);
          s.loadGeneratorCpu += (generator.user + generator.system) / 1000;
          s.parts.push(result);
          s.cpu.push(cpu);
          turns.push({ slice: k, server: s.name, instances: result.acknowledged.length, cpuMs: cpu.server + cpu.database });
        }
      }
    } catch (error) {
      await stopWatching();
      throw error;
    }
    const watched = await stopWatching();
    const statementsAfter = await Promise.all(sides.map((s) => databaseStatements(s.side)));
    await settle();
    // Read before the check, whose reads are not the storm's.
    const transactions = await Promise.all(sides.map((s, i) => transactionsOf(s.contender.databaseUrl).then((n) => n - transactionsBefore[i])));
    const storms: ServerStorm[] = [];
    for (const [i, s] of sides.entries()) {
      const result = joined(s.parts);
      const problems = await checkStorm(s.side, result.acknowledged, warmed[i].released);
      if (warmed[i].failed > 0) problems.push(`${warmed[i].failed} instances of the warm-up given up on an error: ${warmed[i].failures.join(' | ')}`);
      const [before, after] = [statementsBefore[i], statementsAfter[i]];
      storms.push({
        server: s.name, asked: instances.length, warmedBy: warmed[i].released.length, result,
        cpu: { server: sum(s.cpu, (c) => c.server), database: sum(s.cpu, (c) => c.database), other: sum(s.cpu, (c) => c.other) },
        loadGeneratorCpu: s.loadGeneratorCpu, statements: before === null || after === null ? null : after - before,
        transactions: transactions[i], watched: watched[i], wide: [], problems,
      });
    }
    return { storms, turns };
  } finally {
    for (const s of sides) {
      s.client.close();
      s.side.close();
    }
  }
}

const sum = <T>(items: readonly T[], of: (item: T) => number) => items.reduce((n, item) => n + of(item), 0);

/** A build's turns as one storm: its instances, requests and conflicts together, its seconds summed. */
function joined(parts: readonly StormResult[]): StormResult {
  return {
    acknowledged: parts.flatMap((p) => p.acknowledged), noValidHost: sum(parts, (p) => p.noValidHost),
    capacityConflicts: sum(parts, (p) => p.capacityConflicts), raceConflicts: sum(parts, (p) => p.raceConflicts),
    retries: sum(parts, (p) => p.retries), retriedInstances: sum(parts, (p) => p.retriedInstances), failed: sum(parts, (p) => p.failed),
    failures: parts.flatMap((p) => p.failures).slice(0, 5), gets: parts.flatMap((p) => p.gets), puts: parts.flatMap((p) => p.puts),
    getBytes: sum(parts, (p) => p.getBytes), putBytes: sum(parts, (p) => p.putBytes), seconds: sum(parts, (p) => p.seconds),
    schedulers: Math.max(...parts.map((p) => p.schedulers)), weighMs: parts[0].weighMs,
  };
}
