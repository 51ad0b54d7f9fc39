import { outside, pairedRatios, schedulerTime, ServerStorm, Spread, spreadOf, Turn, wideWindow, within } from './figures.js';
import { wideProblems } from './wide.js';
import type { Floor } from './floor.js';

const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const ms = (s: Spread) => `n=${s.n} p50 ${f(s.p50, 1)} / p95 ${f(s.p95, 1)} / p99 ${f(s.p99, 1)} ms`;
const mb = (bytes: number) => `${f(bytes / 2 ** 20, 0)} MB`;

/** One server's storm, a line per figure. */
export function stormLines(s: ServerStorm): string[] {
  const r = s.result;
  const scheduled = r.acknowledged.length;
  const who = `  ${s.server.padEnd(8)} `;
  const per = (x: number) => f(x / scheduled, 2);
  const spent = schedulerTime(r);
  const lines = [
    `${who}${scheduled} of ${s.asked} instances scheduled (${r.noValidHost} no valid host, ${r.failed} errors) in ${f(r.seconds, 2)} s = ${f(scheduled / r.seconds)} instances/s`
      + `${s.warmedBy > 0 ? `, after ${s.warmedBy} uncounted to warm up` : ''}`,
    ...(r.failed > 0 ? [`${who}${r.failed} instances given up on an error: ${r.failures.join(' | ')}`] : []),
    `${who}GET candidates ${ms(spreadOf(r.gets))} | PUT allocations ${ms(spreadOf(r.puts))}`,
    `${who}a scheduler's time per instance: ${f(spent.perInstance)} ms (schedulers x seconds / instances): waiting for GETs ${f(spent.gets)}, `
      + `PUTs ${f(spent.puts)}, weighing ${f(spent.weighing)}, its own event loop ${f(spent.own)}`,
    `${who}409s: ${r.capacityConflicts + r.raceConflicts} (${r.capacityConflicts} capacity, ${r.raceConflicts} concurrent update); `
      + `${r.retries} questions asked again, by ${r.retriedInstances} instances`,
    `${who}CPU per scheduled instance: server ${per(s.cpu.server)} ms + PostgreSQL ${per(s.cpu.database)} ms = ${per(s.cpu.server + s.cpu.database)} ms `
      + `(rest of the host ${per(s.cpu.other)} ms, of which the load generator ${per(s.loadGeneratorCpu)} ms)`,
    `${who}round trips to PostgreSQL per scheduled instance: ${s.statements === null ? 'statements not reported' : `${per(s.statements)} statements`}, `
      + `${per(s.transactions)} transactions`,
    `${who}GET / every 100 ms meanwhile: ${ms(spreadOf(s.watched.root))}${s.watched.rootFailures > 0 ? `, ${s.watched.rootFailures} FAILED` : ''}; `
      + `peak RSS ${mb(s.watched.peakTreeRss)} (process tree, sampled), largest process's high-water mark ${mb(s.watched.peakProcessHwm)}`,
  ];
  const window = wideWindow(s);
  if (window) {
    const { from, to } = window;
    const asked = s.wide.map((w) => `${w.label}: ${w.status ?? 'no answer'}${w.candidates !== null ? ` (${w.candidates} candidates)` : ''} in ${f(w.to - w.from, 0)} ms`);
    const problems = s.wide.flatMap(wideProblems);
    lines.push(`${who}wide tree, asked ${f(from / 1000, 1)} s into the storm: ${asked.join('; ')}: ${problems.length === 0 ? 'as issue 30 asks' : `not as issue 30 asks (${problems.join('; ')})`}`);
    lines.push(`${who}while asked (${f((to - from) / 1000, 1)} s): GET / ${ms(spreadOf(within(s.watched.root, from, to)))}, `
      + `GET candidates ${ms(spreadOf(within(r.gets, from, to)))}, PUT ${ms(spreadOf(within(r.puts, from, to)))}; `
      + `otherwise GET / ${ms(spreadOf(outside(s.watched.root, from, to)))}`);
  }
  lines.push(`${who}consistency: ${s.problems.length === 0 ? 'sound (no over-commit, every claim read back, project usages equal the claims)' : `VIOLATED (${s.problems.length}): ${s.problems.slice(0, 5).join('; ')}`}`);
  return lines.map((line) => `${line}\n`);
}

/** Ours beside the stack's floor (storm/floor.ts): what a bare node:http server on PostgreSQL spent on the same requests. */
export function floorLines(ours: ServerStorm, floor: Floor): string[] {
  const scheduled = ours.result.acknowledged.length;
  const server = ours.cpu.server / scheduled, database = ours.cpu.database / scheduled;
  return [`  ours     the stack's floor, a bare node:http server answering as many requests of the same sizes, a GET reading a table's head and a PUT inserting its body:`
    + ` server ${f(floor.server, 2)} ms + PostgreSQL ${f(floor.database, 2)} ms = ${f(floor.server + floor.database, 2)} ms per instance`
    + ` (ours ${f(server / floor.server, 1)}x, ${f(database / floor.database, 1)}x and ${f((server + database) / (floor.server + floor.database), 1)}x these)\n`];
}

/** Ours against upstream: how many times more instances a second, and how many times less CPU each. */
export function comparisonLines(ours: ServerStorm, upstream: ServerStorm): string[] {
  const rate = (s: ServerStorm) => s.result.acknowledged.length / s.result.seconds;
  const cpu = (s: ServerStorm) => (s.cpu.server + s.cpu.database) / s.result.acknowledged.length;
  const p50 = (s: ServerStorm, which: 'gets' | 'puts') => spreadOf(s.result[which]).p50;
  return [
    `  ours/upstream: ${f(rate(ours) / rate(upstream))}x instances/s, ${f(cpu(upstream) / cpu(ours))}x less server + PostgreSQL CPU per instance, `
      + `GET p50 ${f(p50(upstream, 'gets') / p50(ours, 'gets'))}x, PUT p50 ${f(p50(upstream, 'puts') / p50(ours, 'puts'))}x faster\n`,
  ];
}

/** Two builds stormed in turns (--against): the other build's CPU per instance over ours', slice by slice. */
export function againstLines(turns: readonly Turn[], against: string): string[] {
  const paired = pairedRatios(turns);
  if (!paired) return ['  against  no slice was booted on both builds\n'];
  return [`  against  ${against}, its server + PostgreSQL CPU per instance over ours', slice by slice (${paired.n} slices): `
    + `mean ${f(paired.mean, 3)} ± ${f(paired.standardError, 3)} (its standard error), median ${f(paired.median, 3)}, from ${f(paired.min, 3)} to ${f(paired.max, 3)}; ours lower in ${paired.oursLower} of ${paired.n}\n`];
}
