import type { Acknowledged } from '../claims-check.js';
import { BenchClient, inParallel } from '../http.js';
import { AnswerBytes, ClientTimes, HttpReply } from '../one-shot-http.js';
import { seededRandom } from '../../support/seeded-random.js';
import { seededUuid } from './cloud.js';
import { drawFlavors, Flavor, queryOf } from './flavors.js';
import { pickAllocation } from './weigher.js';

/** One instance to boot: who it is, whose, and what it asks for. */
export interface Instance {
  readonly consumer: string;
  readonly projectId: string;
  readonly userId: string;
  readonly flavor: Flavor;
  readonly query: string;
}

/**
 * `count` instances from `seed`: flavors drawn from `mix`, billed to `projects` projects in turn
 * (0: a project of its own each, as upstream's perfload job claims), one user per project.
 */
export function planInstances(mix: readonly Flavor[], count: number, projects: number, seed: number): Instance[] {
  const random = seededRandom(seed);
  const flavors = drawFlavors(mix, count, random.next);
  const tenants = Array.from({ length: projects }, () => ({ projectId: seededUuid(random), userId: seededUuid(random) }));
  return flavors.map((flavor, i) => {
    const tenant = projects > 0 ? tenants[i % projects] : { projectId: seededUuid(random), userId: seededUuid(random) };
    return { consumer: seededUuid(random), ...tenant, flavor, query: queryOf(flavor) };
  });
}

/**
 * A request's time, and when it ended, in ms since the storm began (to look at a window of the
 * storm); `times`: its moments as the client saw them, for --trace.
 */
export interface Timed { readonly at: number; readonly ms: number; readonly times?: ClientTimes }

export interface StormResult {
  readonly acknowledged: Acknowledged[];
  /** Instances for which no candidate was left (Nova's NoValidHost). */
  readonly noValidHost: number;
  /** 409s for capacity a faster claim took, and for a generation the server's own retries did not get past. */
  readonly capacityConflicts: number;
  readonly raceConflicts: number;
  /** Questions asked again after a 409, and by how many instances. */
  readonly retries: number;
  readonly retriedInstances: number;
  /**
   * Instances given up on an answer that was neither a success nor a 409, with the first few
   * answers: Nova's scheduler gives such an instance up too, and the storm goes on.
   */
  readonly failed: number;
  readonly failures: string[];
  readonly gets: Timed[];
  readonly puts: Timed[];
  /** Bytes of every GET's answer, and of every PUT's body, summed. */
  readonly getBytes: number;
  readonly putBytes: number;
  readonly seconds: number;
  /** How the storm was asked: schedulers at once, and each one's time weighing before a claim. */
  readonly schedulers: number;
  readonly weighMs: number;
}

const MAX_TRIES = 20;

/**
 * `schedulers` schedulers booting the instances, each on its own: ask for candidates, weigh,
 * claim (1.36's body: consumer_generation null for a new consumer), and on a 409 ask again. The
 * host picked among the best is drawn from a sequence of the instance's own, so a seed gives the
 * same choices whatever the interleaving allows. `started`: the clock's zero for `at`, shared
 * with what watches the server meanwhile. `weighMs`: the time a scheduler then spends before it
 * claims (--weigh-ms), idle here as Nova's filters and weighers run on a host of their own.
 */
export async function storm(
  client: BenchClient, instances: readonly Instance[], schedulers: number, seed: number, started = performance.now(), weighMs = 0,
): Promise<StormResult> {
  const acknowledged: Acknowledged[] = [];
  const gets: Timed[] = [], puts: Timed[] = [];
  let noValidHost = 0, capacityConflicts = 0, raceConflicts = 0, retries = 0, retriedInstances = 0, failed = 0, getBytes = 0, putBytes = 0;
  const failures: string[] = [];
  const fail = (what: string, status: number, body: string) => {
    failed++;
    if (failures.length < 5) failures.push(`${what} answered ${status}: ${body.slice(0, 400)}`);
  };
  const timed = async (into: Timed[], call: () => Promise<HttpReply>): Promise<HttpReply> => {
    const t0 = performance.now();
    const reply = await call();
    const t1 = performance.now();
    into.push({ at: t1 - started, ms: t1 - t0, times: reply.times });
    return reply;
  };
  // Each answer is read into memory used again once it is weighed: a fresh buffer of hundreds of
  // kilobytes per answer, outside V8's heap, set off a full collection every few answers.
  const spare: AnswerBytes[] = [];
  await inParallel(instances.length, schedulers, async (i) => {
    const instance = instances[i];
    const random = seededRandom(seed * 7919 + i + 1);
    for (let tries = 1; ; tries++) {
      const into = spare.pop() ?? new AnswerBytes();
      const reply = await timed(gets, () => client.call('GET', instance.query, undefined, undefined, into));
      if (reply.status !== 200) { fail(`GET ${instance.query}`, reply.status, reply.body); return; }
      getBytes += reply.bytes.length;
      const allocations = pickAllocation(reply.bytes, random.next);
      spare.push(into);
      if (!allocations) { noValidHost++; return; }
      if (weighMs > 0) await new Promise((resolve) => setTimeout(resolve, weighMs));
      const claim = { allocations, project_id: instance.projectId, user_id: instance.userId, consumer_generation: null };
      putBytes += Buffer.byteLength(JSON.stringify(claim));
      const put = await timed(puts, () => client.call('PUT', `/allocations/${instance.consumer}`, claim));
      if (put.status !== 204 && put.status !== 409) { fail(`PUT /allocations/${instance.consumer}`, put.status, put.body); return; }
      if (put.status === 204) {
        acknowledged.push({ consumer: instance.consumer, projectId: instance.projectId, allocations });
        if (tries > 1) retriedInstances++;
        return;
      }
      if (JSON.parse(put.body).errors?.[0]?.code === 'placement.concurrent_update') raceConflicts++;
      else capacityConflicts++;
      if (tries >= MAX_TRIES) throw new Error(`instance ${instance.consumer} (${instance.flavor.name}) was refused ${MAX_TRIES} times: ${put.body.slice(0, 300)}`);
      retries++;
    }
  });
  return {
    acknowledged, noValidHost, capacityConflicts, raceConflicts, retries, retriedInstances, failed, failures, gets, puts, getBytes, putBytes,
    seconds: (performance.now() - started) / 1000, schedulers: Math.min(schedulers, instances.length), weighMs,
  };
}
