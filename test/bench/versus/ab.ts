import { spawn } from 'node:child_process';

/**
 * What ApacheBench measured: a new connection per request (no -k), as upstream's gate runs it.
 * Throughput only: ab's percentiles are whole milliseconds, and its -e table is wrong at the top
 * for small runs, so latency is timed by measure.ts's client on a new connection per request.
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

/** `ab -n requests -c concurrency` as the admin token at 1.39, without keep-alive. */
export async function ab(url: string, requests: number, concurrency: number): Promise<AbFigures> {
  const args = ['-q', '-n', String(requests), '-c', String(concurrency),
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
