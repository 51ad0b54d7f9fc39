import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What ApacheBench measured: a new connection per request (no -k), as upstream's gate runs it.
 */
export interface AbFigures {
  readonly requests: number;
  readonly concurrency: number;
  readonly perSecond: number;
  /** ab's "Time per request": the mean latency of one request at this concurrency. */
  readonly meanMs: number;
  /** Answers whose length differed from the first (ab counts them as failed). */
  readonly failed: number;
  readonly non2xx: number;
}

/** ab's summary. */
export function parseAb(summary: string): Omit<AbFigures, 'concurrency'> {
  const number = (label: RegExp) => {
    const match = label.exec(summary);
    return match ? Number(match[1]) : 0;
  };
  const requests = number(/^Complete requests:\s+(\d+)/m);
  if (requests === 0) throw new Error(`ab completed no request:\n${summary}`);
  return {
    requests,
    perSecond: number(/^Requests per second:\s+([\d.]+)/m),
    meanMs: number(/^Time per request:\s+([\d.]+) \[ms\] \(mean\)$/m),
    failed: number(/^Failed requests:\s+(\d+)/m),
    non2xx: number(/^Non-2xx responses:\s+(\d+)/m),
  };
}

/** Percentiles of one client's requests, in ms, from ab's `-e` table. */
export interface AbPercentiles {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
}

/**
 * ab's `-e` table: per whole percent, the time of request round(n * p / 100) in ascending order,
 * in ms with microseconds. For few requests the top rows read past the last request (ab indexes
 * without a bound), so a row whose index is out of range is the slowest request instead, which is
 * what that percentile is for so few.
 */
export function parsePercentiles(csv: string, requests: number): AbPercentiles {
  const rows = new Map<number, number>();
  for (const line of csv.split('\n')) {
    const match = /^(\d+),([\d.]+)$/.exec(line.trim());
    if (match) rows.set(Number(match[1]), Number(match[2]));
  }
  const at = (percent: number) => {
    const inRange = Math.floor(0.5 + (requests * percent) / 100) <= requests - 1;
    const value = rows.get(inRange ? percent : 100);
    if (value === undefined) throw new Error(`ab's percentile table has no row ${percent}:\n${csv}`);
    return value;
  };
  return { p50: at(50), p95: at(95), p99: at(99) };
}

/** One client timed request by request, as upstream's gate would: `ab -c 1`, without keep-alive. */
export async function abLatency(url: string, requests: number, budgetSeconds: number): Promise<{ requests: number } & AbPercentiles> {
  const dir = mkdtempSync(join(tmpdir(), 'pl-ab-'));
  try {
    const csv = join(dir, 'percentiles.csv');
    // -t bounds the time and -n, given after it, the count: whichever comes first ends the run.
    const figures = await ab(url, requests, 1, ['-t', String(budgetSeconds), '-n', String(requests), '-e', csv]);
    return { requests: figures.requests, ...parsePercentiles(readFileSync(csv, 'utf8'), figures.requests) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `ab -n requests -c concurrency` as the admin token at 1.39, without keep-alive. */
export async function ab(url: string, requests: number, concurrency: number, extra: string[] = []): Promise<AbFigures> {
  const args = ['-q', '-n', String(requests), '-c', String(concurrency), ...extra,
    '-H', 'x-auth-token: admin', '-H', 'openstack-api-version: placement 1.39', '-H', 'accept: application/json', url];
  const child = spawn('ab', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((done, fail) => {
    child.on('error', (error) => fail(new Error(`ab could not run (${error.message}): apt-get install apache2-utils`)));
    child.on('exit', done);
  });
  if (code !== 0) throw new Error(`ab ${args.join(' ')} exited ${code}:\n${out}`);
  const figures = { ...parseAb(out), concurrency };
  if (figures.non2xx > 0) throw new Error(`ab: ${figures.non2xx} answers were not 2xx for ${url}`);
  return figures;
}
