import { readFileSync } from 'node:fs';
import { BenchClient } from '../http.js';
import { processTree } from '../versus/process-cpu.js';
import type { Timed } from './scheduler.js';

/**
 * What the rest of the service does while a storm runs: GET / asked every 100 ms on a new
 * connection (how long anyone else waits), and the server's memory (its process tree's resident
 * set, sampled, and each process's own high-water mark).
 */
export interface Watched {
  readonly root: Timed[];
  readonly rootFailures: number;
  /** The largest sum of the tree's VmRSS sampled, and the largest VmHWM of one of its processes, in bytes. */
  readonly peakTreeRss: number;
  readonly peakProcessHwm: number;
}

const PROBE_EVERY_MS = 100;
const SAMPLE_EVERY_MS = 200;

function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Watches the server of `pid` through `client` from now until the returned stop is called; `started` is the storm's zero. */
export function watchServer(client: BenchClient, pid: number, started: number): { stop(): Promise<Watched> } {
  const root: Timed[] = [];
  let rootFailures = 0, peakTreeRss = 0, watching = true;
  const probing = (async () => {
    while (watching) {
      const t0 = performance.now();
      const ok = await client.call('GET', '/').then((reply) => reply.status === 200, () => false);
      const t1 = performance.now();
      if (ok) root.push({ at: t1 - started, ms: t1 - t0 });
      else rootFailures++;
      await pause(Math.max(0, PROBE_EVERY_MS - (t1 - t0)));
    }
  })();
  const sampling = (async () => {
    while (watching) {
      peakTreeRss = Math.max(peakTreeRss, processTree(pid).reduce((sum, p) => sum + statusBytes(p, 'VmRSS'), 0));
      await pause(SAMPLE_EVERY_MS);
    }
  })();
  return {
    /** Stops watching (again, harmlessly) and says what was seen. */
    async stop() {
      watching = false;
      await Promise.all([probing, sampling]);
      const peakProcessHwm = Math.max(0, ...processTree(pid).map((p) => statusBytes(p, 'VmHWM')));
      return { root, rootFailures, peakTreeRss, peakProcessHwm };
    },
  };
}
