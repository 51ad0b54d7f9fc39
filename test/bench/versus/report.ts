import type { Latency } from '../measure.js';
import type { AbFigures } from './ab.js';
import type { CpuSplit } from './process-cpu.js';

/** One measured phase of one contender. */
export interface Phase<F> {
  readonly figures: F;
  readonly cpu: CpuSplit;
}

const f = (n: number, digits = 1) => n.toFixed(digits);
const perRequest = (cpu: CpuSplit, count: number, unit = 'req') =>
  `CPU/${unit} server ${f(cpu.server / count, 2)} ms + PostgreSQL ${f(cpu.database / count, 2)} ms (host other ${f(cpu.other / count, 2)} ms)`;

export function latencyLine(who: string, label: string, phase: Phase<Latency>): string {
  const r = phase.figures;
  return `  ${who.padEnd(8)} ${label.padEnd(22)} n=${String(r.requests).padStart(4)}: p50 ${f(r.p50, 2).padStart(8)} ms, p95 ${f(r.p95, 2).padStart(8)} ms, `
    + `p99 ${f(r.p99, 2).padStart(8)} ms, ${r.candidates} candidates, ${f(r.bytes / 1024)} KB | ${perRequest(phase.cpu, r.requests)}\n`;
}

export function abLine(who: string, label: string, phase: Phase<AbFigures>): string {
  const r = phase.figures;
  return `  ${who.padEnd(8)} ${label.padEnd(22)} n=${String(r.requests).padStart(4)}: ${f(r.perSecond).padStart(7)} req/s, mean ${f(r.meanMs, 1)} ms`
    + `${r.failed > 0 ? ` (${r.failed} answers of another length)` : ''} | ${perRequest(phase.cpu, r.requests)}\n`;
}

export function countLine(who: string, label: string, count: number, seconds: number, unit: string, cpu: CpuSplit): string {
  return `  ${who.padEnd(8)} ${label.padEnd(22)} ${count} ${unit} in ${f(seconds, 2)} s = ${f(count / seconds).padStart(7)} ${unit}/s | ${perRequest(cpu, count, unit.replace(/s$/, ''))}\n`;
}

/** "40x (goal 40x): met", with the ratio always in our favour's direction (higher is better). */
export function goalLine(what: string, ratio: number, goal: number): string {
  return `  ${what.padEnd(34)} ${f(ratio, 1).padStart(7)}x upstream (goal ${goal}x): ${ratio >= goal ? 'met' : 'MISSED'}\n`;
}
