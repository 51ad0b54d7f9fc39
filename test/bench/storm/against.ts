import { BenchClient } from '../http.js';
import { Contender, startOurs } from '../versus/contenders.js';
import type { CpuSplit } from '../versus/process-cpu.js';
import type { TreePlan } from './cloud.js';
import type { Flavor } from './flavors.js';
import { loadCloud } from './load.js';
import { candidatesPerFlavor, countDifferences } from './probe.js';
import type { ServerStorm, Turn } from './figures.js';
import type { StormOptions } from './options.js';
import { Instance, storm, StormResult } from './scheduler.js';
import { settle } from './statistics.js';
import { StormSubject } from './subject.js';
import { warmUpRounds } from './warm-up.js';
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

/**
 * Two builds of ours stormed in turns (`--against`): each warmed up as a storm of one build is,
 * the two taking turns round by round, then the storm's instances cut into `slices` turns, every
 * turn booted on one build and then the same instances on the other, which goes first
 * alternating. Each build has its own copy of the cloud, so both meet the same fill. Runs of one
 * build after the other, minutes apart, differ by more than a change is worth on this shared VM,
 * whose speed drifts within the hour; turns of a second or two share the drift, and so does each
 * pair's ratio (figures.ts, pairedRatios).
 * PostgreSQL's CPU is its whole cluster's, as in every bench: the build whose turn it is, alone.
 */
export async function stormAgainst(
  builds: readonly [Contender, Contender], warmup: readonly Instance[], instances: readonly Instance[], options: StormOptions,
): Promise<{ storms: ServerStorm[]; turns: Turn[] }> {
  const subjects: StormSubject[] = [];
  try {
    for (const [i, contender] of builds.entries()) subjects.push(StormSubject.open(contender, options, BUILDS[i]));
    // Round by round in turns: a build warmed up whole before the other then sits idle through
    // the other's warm-up, and meets the storm the colder of the two (docs/performance.md).
    for (const round of warmUpRounds(warmup, instances.length)) for (const subject of subjects) await subject.warmRound(round);
    await settle();
    const meters = [];
    for (const subject of subjects) meters.push(await subject.begin());
    const started = performance.now();
    const watches = subjects.map((s) => watchServer(s.side, s.contender.pid, started));
    const stopWatching = () => Promise.all(watches.map((w) => w.stop()));
    const parts: StormResult[][] = subjects.map(() => []);
    const cpu: CpuSplit[][] = subjects.map(() => []);
    const loadGeneratorCpu = subjects.map(() => 0);
    const turns: Turn[] = [];
    try {
      for (let k = 0; k < options.slices; k++) {
        const slice = instances.slice(Math.floor((k * instances.length) / options.slices), Math.floor(((k + 1) * instances.length) / options.slices));
        for (const i of k % 2 === 0 ? [0, 1] : [1, 0]) {
          const generatorBefore = process.cpuUsage();
          // Its own clock: a build's seconds are its turns' summed.
          const turn = await meters[i].around(() => storm(subjects[i].client, slice, options.schedulers, options.seed + k, performance.now(), options.weighMs));
          const generator = process.cpuUsage(generatorBefore);
          loadGeneratorCpu[i] += (generator.user + generator.system) / 1000;
          parts[i].push(turn.result);
          cpu[i].push(turn.cpu);
          turns.push({ slice: k, server: BUILDS[i], instances: turn.result.acknowledged.length, cpuMs: turn.cpu.server + turn.cpu.database });
        }
      }
    } catch (error) {
      await stopWatching();
      throw error;
    }
    const watched = await stopWatching();
    for (const subject of subjects) await subject.end();
    await settle();
    const storms: ServerStorm[] = [];
    for (const [i, subject] of subjects.entries()) {
      storms.push(await subject.report(instances.length, {
        result: joined(parts[i]), loadGeneratorCpu: loadGeneratorCpu[i], watched: watched[i], wide: [],
        cpu: { server: sum(cpu[i], (c) => c.server), database: sum(cpu[i], (c) => c.database), other: sum(cpu[i], (c) => c.other) },
      }));
    }
    return { storms, turns };
  } finally {
    for (const subject of subjects) subject.close();
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
