import { readFileSync } from 'node:fs';
import { BenchClient, inParallel } from './http.js';

export interface Latency {
  readonly requests: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly candidates: number;
  readonly bytes: number;
}

export interface Throughput {
  readonly requests: number;
  readonly clients: number;
  readonly perSecond: number;
  /** The server process's CPU time per request: what the figure would be on an idle core. */
  readonly serverCpuMs: number | null;
}

/**
 * A process's CPU time from /proc/PID/stat (Linux), in ms of 10 ms clock ticks: its own (user +
 * system) and that of the children it has reaped (exited ones); null elsewhere.
 */
export function statCpuMs(pid: number | undefined): { own: number; reaped: number } | null {
  try {
    const ticks = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ').slice(11, 15).map(Number);
    return { own: (ticks[0] + ticks[1]) * 10, reaped: (ticks[2] + ticks[3]) * 10 };
  } catch {
    return null;
  }
}

/** CPU time (user + system) a process has used, in ms; `withReaped` adds its reaped children's. */
export function cpuMsOf(pid: number | undefined, withReaped = false): number | null {
  const stat = statCpuMs(pid);
  return stat === null ? null : stat.own + (withReaped ? stat.reaped : 0);
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const millis = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** What one answer holds: checked once per phase so a wrong answer cannot pass for a fast one. */
export async function probe(client: BenchClient, path: string): Promise<{ candidates: number; bytes: number }> {
  const reply = await client.expect('GET', path, undefined, [200]);
  return { candidates: JSON.parse(reply.body).allocation_requests.length, bytes: Buffer.byteLength(reply.body) };
}

/** One client, one request after the other; stops early when the time budget is spent. */
export async function latency(client: BenchClient, path: string, requests: number, budgetMs: number): Promise<Latency> {
  const { candidates, bytes } = await probe(client, path);
  const times: number[] = [];
  const deadline = Date.now() + budgetMs;
  for (let i = 0; i < requests && (i < 5 || Date.now() < deadline); i++) {
    const start = process.hrtime.bigint();
    const reply = await client.call('GET', path);
    times.push(millis(start));
    if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status}`);
  }
  times.sort((a, b) => a - b);
  return { requests: times.length, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), candidates, bytes };
}

/** `clients` clients sharing `requests` requests, as upstream's job runs 500 with 10. */
export async function throughput(client: BenchClient, path: string, requests: number, clients: number, serverPid?: number): Promise<Throughput> {
  const cpuBefore = cpuMsOf(serverPid);
  const start = process.hrtime.bigint();
  await inParallel(requests, clients, async () => {
    const reply = await client.call('GET', path);
    if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status}`);
  });
  const perSecond = requests / (millis(start) / 1000);
  const cpuAfter = cpuMsOf(serverPid);
  return { requests, clients, perSecond, serverCpuMs: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / requests };
}
