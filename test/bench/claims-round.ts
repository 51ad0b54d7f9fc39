import { randomUUID } from 'node:crypto';
import { Acknowledged, Allocations } from './claims-check.js';
import { BenchClient, inParallel } from './http.js';

/**
 * Where a round claims: the candidates query (without limit), and who claims. Without a tenant
 * each claim has a project and user of its own, as in upstream's perfload job; with one, every
 * claim bills the same project, as one tenant's burst of instances would.
 */
export interface ClaimTarget {
  readonly query: string;
  readonly tenant?: { readonly projectId: string; readonly userId: string };
}

type Attempt =
  | { readonly kind: 'claimed'; readonly claim: Acknowledged; readonly ms: number; readonly putMs: number }
  | { readonly kind: 'capacity' | 'race'; readonly consumer: string }
  | { readonly kind: 'exhausted' };

/** What a round did: claims acknowledged, consumers refused, why, and how long claims took. */
export interface RoundResult {
  readonly acknowledged: Acknowledged[];
  readonly refused: string[];
  /** 409s for capacity taken by a faster claim (a stale candidate). */
  readonly capacityConflicts: number;
  /** 409 placement.concurrent_update: the server's own retries ran out. */
  readonly raceConflicts: number;
  /** Successful claims, GET candidates + PUT, and the PUT alone, in ms. */
  readonly claimMs: number[];
  readonly putMs: number[];
  readonly seconds: number;
}

const millis = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** One claim as upstream's perfload job makes it: the first of 5 candidates, PUT for a new consumer. */
async function attempt(client: BenchClient, target: ClaimTarget): Promise<Attempt> {
  const start = process.hrtime.bigint();
  const candidates = JSON.parse((await client.expect('GET', `${target.query}&limit=5`, undefined, [200])).body);
  if (candidates.allocation_requests.length === 0) return { kind: 'exhausted' };
  const allocations: Allocations = candidates.allocation_requests[0].allocations;
  const consumer = randomUUID();
  const { projectId, userId } = target.tenant ?? { projectId: randomUUID(), userId: randomUUID() };
  const putStart = process.hrtime.bigint();
  const reply = await client.expect('PUT', `/allocations/${consumer}`, {
    allocations, project_id: projectId, user_id: userId, consumer_generation: null, consumer_type: 'INSTANCE',
  }, [204, 409]);
  if (reply.status === 204) {
    return { kind: 'claimed', claim: { consumer, projectId, allocations }, ms: millis(start), putMs: millis(putStart) };
  }
  const code = JSON.parse(reply.body).errors?.[0]?.code;
  return { kind: code === 'placement.concurrent_update' ? 'race' : 'capacity', consumer };
}

class Tally {
  readonly acknowledged: Acknowledged[] = [];
  readonly refused: string[] = [];
  readonly claimMs: number[] = [];
  readonly putMs: number[] = [];
  capacityConflicts = 0;
  raceConflicts = 0;
  private readonly start = process.hrtime.bigint();

  /** Records one attempt; true when it ended in a claim or there was nothing left to claim. */
  record(outcome: Attempt): boolean {
    if (outcome.kind === 'claimed') {
      this.acknowledged.push(outcome.claim);
      this.claimMs.push(outcome.ms);
      this.putMs.push(outcome.putMs);
    } else if (outcome.kind !== 'exhausted') {
      this.refused.push(outcome.consumer);
      if (outcome.kind === 'race') this.raceConflicts++;
      else this.capacityConflicts++;
    }
    return outcome.kind === 'claimed' || outcome.kind === 'exhausted';
  }

  result(): RoundResult {
    const { acknowledged, refused, capacityConflicts, raceConflicts, claimMs, putMs } = this;
    return { acknowledged, refused, capacityConflicts, raceConflicts, claimMs, putMs, seconds: millis(this.start) / 1000 };
  }
}

/** `claims` claims by `clients` clients; a refused claim is tried again with fresh candidates, as a scheduler would. */
export async function claimRound(client: BenchClient, target: ClaimTarget, claims: number, clients: number, maxTries = 20): Promise<RoundResult> {
  const tally = new Tally();
  await inParallel(claims, clients, async () => {
    for (let tries = 1; !tally.record(await attempt(client, target)); tries++) {
      if (tries >= maxTries) throw new Error(`a claim was refused ${maxTries} times in a row`);
    }
  });
  return tally.result();
}

/** `clients` clients claiming until the candidates run out; bounded so a fault cannot loop forever. */
export async function claimUntilFull(client: BenchClient, target: ClaimTarget, clients: number, maxAttempts: number): Promise<RoundResult> {
  const tally = new Tally();
  let attempts = 0;
  let exhausted = false;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (!exhausted) {
      if (++attempts > maxAttempts) throw new Error(`still claiming after ${maxAttempts} attempts`);
      const outcome = await attempt(client, target);
      tally.record(outcome);
      if (outcome.kind === 'exhausted') exhausted = true;
    }
  }));
  return tally.result();
}
