import type { Acknowledged } from '../claims-check.js';
import { BenchClient, inParallel } from '../http.js';
import { Instance, storm } from './scheduler.js';

export interface WarmedUp {
  /** Instances booted, then deleted. */
  readonly released: readonly Acknowledged[];
  readonly failed: number;
  readonly failures: readonly string[];
}

/**
 * The storm's warm-up, as a cloud's instances come and go: `instances` booted by the storm's
 * schedulers in rounds of at most `round`, each round deleted (DELETE /allocations/{consumer})
 * before the next. The server meets the measured storm with its path warm (V8 compiled, the
 * database's backends warm), as a long-running server does, and the cloud as it was loaded,
 * however long the warm-up.
 */
export async function warmUp(
  client: BenchClient, instances: readonly Instance[], round: number, schedulers: number, seed: number,
): Promise<WarmedUp> {
  const released: Acknowledged[] = [];
  let failed = 0;
  const failures: string[] = [];
  const size = Math.max(1, round);
  for (let at = 0; at < instances.length; at += size) {
    const booted = await storm(client, instances.slice(at, at + size), schedulers, seed + at);
    failed += booted.failed;
    failures.push(...booted.failures.slice(0, Math.max(0, 5 - failures.length)));
    await inParallel(booted.acknowledged.length, schedulers, async (i) => {
      await client.expect('DELETE', `/allocations/${booted.acknowledged[i].consumer}`, undefined, [204]);
    });
    released.push(...booted.acknowledged);
  }
  return { released, failed, failures };
}
