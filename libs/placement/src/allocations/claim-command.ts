import {
  ClaimDecision, ClaimState, consumerStream, evolveConsumer, initialConsumerState,
} from '#domain/allocation/index.js';
import { ErrorCode, conflict, evolveProvider, initialProviderState, providerStream } from '#domain/index.js';
import { WrongExpectedRevision } from '#event-store/index.js';
import { Attempt } from '../shared/attempt.js';
import { RunOptions } from '../shared/command-runner.js';
import { DeciderStates, Loaded, StreamType } from '../shared/decider-states.js';

export interface ClaimPlan {
  readonly consumers: readonly string[];
  /** The providers to load once the consumers are known (those named, and those they hold). */
  providers(consumers: ClaimState['consumers']): readonly string[];
  decide(state: ClaimState): Promise<ClaimDecision> | ClaimDecision;
  /** Added to every event's metadata, beside who asked: how the claim was asked for (e.g. a merge patch). */
  readonly metadata?: Readonly<Record<string, string>>;
  /**
   * Consumers the client says are new (consumer_generation null): not read before the first
   * attempt, which takes them for absent when this process has never seen them. The append
   * expects no stream, so one that exists is decided again on what the log holds.
   */
  readonly presumedNew?: readonly string[];
}

/** How many times a claim is decided (upstream's [placement] allocation_conflict_retry_count); 10 when not provided. */
export const CLAIM_ATTEMPTS = Symbol('CLAIM_ATTEMPTS');

const CONSUMER = { evolve: evolveConsumer, initialState: initialConsumerState };
const PROVIDER = { evolve: evolveProvider, initialState: initialProviderState };

/**
 * A claim as the CommandRunner runs it: load the consumers and every provider touched, decide,
 * and write the consumers' and providers' events, all appended at once. The consumers are read
 * first, outside the runner, to know which streams the claim will likely touch: claims sharing
 * one take turns in this process instead of racing each other. A consumer read before the turn
 * came is at least as fresh as what its client knew when it sent the request; anything newer makes
 * the append fail its revision check, and the next attempt reads again.
 */
export async function claimCommand(
  states: DeciderStates, plan: ClaimPlan, attempts: number,
): Promise<{ decide: (attempt: Attempt) => Promise<void>; options: RunOptions }> {
  // Consumers presumed new that this process has never seen are not read: the first attempt takes them for absent.
  const presumed = new Set((plan.presumedNew ?? []).map(consumerStream).filter((stream) => states.cached(stream) === undefined));
  const read = await Promise.all(plan.consumers.map((uuid) => (presumed.has(consumerStream(uuid))
    ? undefined
    : states.load(consumerStream(uuid), CONSUMER))));
  const preloaded = new Map<string, Loaded<unknown>>();
  plan.consumers.forEach((uuid, i) => {
    if (read[i]) preloaded.set(consumerStream(uuid), read[i]);
  });
  const now = Object.fromEntries(plan.consumers.map((uuid, i) => [uuid, read[i]?.state ?? initialConsumerState()]));
  return {
    decide: async (attempt) => {
      const consumers = await loadAll(attempt, plan.consumers, consumerStream, CONSUMER);
      const providers = await loadAll(attempt, plan.providers(consumers), providerStream, PROVIDER);
      const decision = await plan.decide({ consumers, providers });
      for (const [uuid, events] of Object.entries(decision.consumers)) attempt.write(consumerStream(uuid), events);
      for (const [uuid, events] of Object.entries(decision.providers)) attempt.write(providerStream(uuid), events);
    },
    options: {
      turns: [...plan.consumers.map(consumerStream), ...plan.providers(now).map(providerStream)],
      preloaded,
      presumedNew: (stream) => presumed.has(stream),
      attempts,
      metadata: plan.metadata,
    },
  };
}

const RACE_PREFIX = 'Inventory and/or allocations changed while attempting to allocate: ';

/**
 * How a claim words running out of attempts: upstream's ConcurrentUpdateDetected 409, with the
 * prefix of the endpoint ('update conflict: ' for the reshaper). Other errors pass as they are.
 */
export function asConcurrentUpdate(prefix = RACE_PREFIX): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof WrongExpectedRevision)) throw error;
    throw conflict(`${prefix}Another thread concurrently updated the resource provider data. Please retry your update`, ErrorCode.CONCURRENT_UPDATE);
  };
}

async function loadAll<State>(
  attempt: Attempt, uuids: readonly string[], stream: (uuid: string) => string, type: StreamType<State, any>,
): Promise<Record<string, State>> {
  const states = await Promise.all(uuids.map((uuid) => attempt.load(stream(uuid), type)));
  return Object.fromEntries(uuids.map((uuid, i) => [uuid, states[i]]));
}
