import { percentile } from '../measure.js';
import type { CpuSplit } from '../versus/process-cpu.js';
import type { StormResult, Timed } from './scheduler.js';
import type { Watched } from './watch.js';
import type { WideAsked } from './wide.js';

/** What one server's storm measured, as reported and written to --json. */
export interface ServerStorm {
  /** 'against': another build of ours, stormed in turns with this one (--against). */
  readonly server: 'ours' | 'upstream' | 'against';
  readonly asked: number;
  /** Instances booted first, uncounted (--warmup). */
  readonly warmedBy: number;
  readonly result: StormResult;
  readonly cpu: CpuSplit;
  /**
   * CPU of this process during the storm, in ms: the schedulers, their GET / meanwhile and the
   * wide tree's questions. Part of `cpu.other`, on the cores the servers measured share.
   */
  readonly loadGeneratorCpu: number;
  /** Round trips to PostgreSQL during the storm: statements (ours says, upstream does not), and transactions (PostgreSQL's count). */
  readonly statements: number | null;
  readonly transactions: number;
  readonly watched: Watched;
  readonly wide: readonly WideAsked[];
  readonly problems: readonly string[];
}

/** One build's turn of a storm against another (storm/against.ts): its instances and their server and PostgreSQL CPU, in ms. */
export interface Turn { readonly slice: number; readonly server: 'ours' | 'against'; readonly instances: number; readonly cpuMs: number }

/**
 * Each slice's CPU per instance of the build `against` over ours', the two turns of a slice
 * taken a second or two apart: the spread of these ratios, not of whole runs, says how large a
 * difference the run can tell. Null without a slice both booted.
 */
export function pairedRatios(turns: readonly Turn[]) {
  const perInstance = (t: Turn | undefined) => (t && t.instances > 0 ? t.cpuMs / t.instances : NaN);
  const slices = [...new Set(turns.map((t) => t.slice))];
  const ratios = slices
    .map((k) => perInstance(turns.find((t) => t.slice === k && t.server === 'against')) / perInstance(turns.find((t) => t.slice === k && t.server === 'ours')))
    .filter((r) => Number.isFinite(r));
  if (ratios.length === 0) return null;
  const sorted = [...ratios].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
  const variance = ratios.length < 2 ? NaN : ratios.reduce((v, r) => v + (r - mean) ** 2, 0) / (ratios.length - 1);
  return {
    n: ratios.length, mean, standardError: Math.sqrt(variance / ratios.length),
    median: sorted.length % 2 === 1 ? sorted[Math.floor(middle)] : (sorted[middle - 1] + sorted[middle]) / 2,
    min: sorted[0], max: sorted[sorted.length - 1], oursLower: ratios.filter((r) => r > 1).length,
  };
}

export interface Spread { readonly n: number; readonly p50: number; readonly p95: number; readonly p99: number; readonly max: number }

/** Nearest-rank percentiles of the times (measure.ts's rule); NaN for none. */
export function spreadOf(times: readonly Timed[]): Spread {
  const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
  if (sorted.length === 0) return { n: 0, p50: NaN, p95: NaN, p99: NaN, max: NaN };
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] };
}

/** The times that ended inside [from, to] (ms since the storm began), or outside it. */
export const within = (times: readonly Timed[], from: number, to: number) => times.filter((t) => t.at >= from && t.at <= to);
export const outside = (times: readonly Timed[], from: number, to: number) => times.filter((t) => t.at < from || t.at > to);

/** From the first wide question asked to the last one answered (ms since the storm began); null without --wide. */
export function wideWindow(s: ServerStorm): { from: number; to: number } | null {
  return s.wide.length === 0 ? null : { from: s.wide[0].from, to: s.wide[s.wide.length - 1].to };
}

/**
 * A scheduler's time per scheduled instance (Little's law: schedulers x seconds / instances) and
 * where it went: waiting for answers to GETs and PUTs, weighing (--weigh-ms), and the rest in the
 * schedulers' own event loop (reading answers, waiting for its turn). Schedulers that never pause
 * ask as fast as they are answered, so there the waits follow from the rate: waits half as long
 * take twice the instances a second, from the same cores.
 */
export function schedulerTime(r: StormResult) {
  const scheduled = r.acknowledged.length;
  const waited = (times: readonly Timed[]) => times.reduce((sum, t) => sum + t.ms, 0) / scheduled;
  const perInstance = (r.schedulers * r.seconds * 1000) / scheduled;
  const gets = waited(r.gets), puts = waited(r.puts), weighing = (r.weighMs * r.puts.length) / scheduled;
  return { perInstance, gets, puts, weighing, own: perInstance - gets - puts - weighing };
}

/** The summary --json keeps: every figure, none of the raw samples. */
export function summaryOf(s: ServerStorm) {
  const scheduled = s.result.acknowledged.length;
  const { acknowledged: _claims, gets, puts, ...counts } = s.result;
  return {
    server: s.server, asked: s.asked, warmedBy: s.warmedBy, scheduled, ...counts,
    instancesPerSecond: scheduled / s.result.seconds, schedulerMsPerInstance: schedulerTime(s.result),
    get: spreadOf(gets), put: spreadOf(puts), root: spreadOf(s.watched.root),
    cpuPerInstanceMs: { server: s.cpu.server / scheduled, database: s.cpu.database / scheduled, other: s.cpu.other / scheduled, loadGenerator: s.loadGeneratorCpu / scheduled },
    statementsPerInstance: s.statements === null ? null : s.statements / scheduled,
    transactionsPerInstance: s.transactions / scheduled,
    peakTreeRssMb: s.watched.peakTreeRss / 2 ** 20, peakProcessHwmMb: s.watched.peakProcessHwm / 2 ** 20,
    wide: s.wide, problems: s.problems,
  };
}
