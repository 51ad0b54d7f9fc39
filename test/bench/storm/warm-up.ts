import type { Acknowledged } from '../claims-check.js';
import { BenchClient, inParallel } from '../http.js';
import { Instance, storm } from './scheduler.js';

/** A round of the warm-up: its instances, and where they start among the warm-up's (their seed's offset). */
export interface WarmUpRound {
  readonly at: number;
  readonly instances: readonly Instance[];
}

export function warmUpRounds(instances: readonly Instance[], round: number): WarmUpRound[] {
  const size = Math.max(1, round);
  const rounds: WarmUpRound[] = [];
  for (let at = 0; at < instances.length; at += size) rounds.push({ at, instances: instances.slice(at, at + size) });
  return rounds;
}

/**
 * The storm's warm-up, as a cloud's instances come and go: instances booted by the storm's
 * schedulers in rounds, each round deleted (DELETE /allocations/{consumer}) before the next. The
 * server meets the measured storm with its path warm (V8 compiled, the database's backends
 * warm), as a long-running server does, and the cloud as it was loaded, however long the
 * warm-up. Taken a round at a time, so that two builds can take turns (against.ts).
 */
export class WarmUp {
  /** Instances booted, then deleted. */
  readonly released: Acknowledged[] = [];
  failed = 0;
  readonly failures: string[] = [];

  constructor(private readonly client: BenchClient, private readonly schedulers: number, private readonly seed: number) {}

  /** Every round of `instances`, in rounds of at most `round`, one after the other. */
  async rounds(instances: readonly Instance[], round: number): Promise<void> {
    for (const part of warmUpRounds(instances, round)) await this.round(part);
  }

  async round({ at, instances }: WarmUpRound): Promise<void> {
    const booted = await storm(this.client, instances, this.schedulers, this.seed + at);
    this.failed += booted.failed;
    this.failures.push(...booted.failures.slice(0, Math.max(0, 5 - this.failures.length)));
    await inParallel(booted.acknowledged.length, this.schedulers, async (i) => {
      await this.client.expect('DELETE', `/allocations/${booted.acknowledged[i].consumer}`, undefined, [204]);
    });
    this.released.push(...booted.acknowledged);
  }
}
