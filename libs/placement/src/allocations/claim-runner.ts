import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  ClaimDecision, ClaimState, ConsumerEvent, ConsumerState, consumerStream, evolveConsumer, initialConsumerState,
} from '#domain/allocation/index.js';
import { ErrorCode, conflict, evolveProvider, initialProviderState, providerStream } from '#domain/index.js';
import { WrongExpectedRevision } from '#event-store/index.js';
import { Caller } from '../shared/caller.js';
import { Attempt, CommandRunner } from '../shared/command-runner.js';
import { KeyedLock } from '../shared/keyed-lock.js';
import { Loaded, MAX_ATTEMPTS, StreamWriter } from '../shared/stream-writer.js';

export interface ClaimPlan {
  readonly consumers: readonly string[];
  /** The providers to load once the consumers are known (those named, and those they hold). */
  providers(consumers: ClaimState['consumers']): readonly string[];
  decide(state: ClaimState): Promise<ClaimDecision> | ClaimDecision;
  /** How the endpoint words running out of attempts (upstream's prefix for ConcurrentUpdateDetected). */
  readonly racePrefix?: string;
  /** Added to every event's metadata, beside who asked: how the claim was asked for (e.g. a merge patch). */
  readonly metadata?: Readonly<Record<string, string>>;
  /**
   * Consumers the client says are new (consumer_generation null): not read before the first
   * attempt, which takes them for absent when this process has never seen them. The append
   * expects no stream, so one that exists is decided again on what the log holds.
   */
  readonly presumedNew?: readonly string[];
}

const RACE_PREFIX = 'Inventory and/or allocations changed while attempting to allocate: ';

/** How many times a claim is decided (upstream's [placement] allocation_conflict_retry_count); 10 when not provided. */
export const CLAIM_ATTEMPTS = Symbol('CLAIM_ATTEMPTS');

const CONSUMER = { evolve: evolveConsumer, initialState: initialConsumerState };
const PROVIDER = { evolve: evolveProvider, initialState: initialProviderState };

/**
 * The one path every claim takes: load the consumers and every provider touched, decide, and
 * append to all of those streams at once with their expected revisions (the CommandRunner).
 * Losing a race to another writer means deciding again on fresher state; only running out of
 * attempts reaches the client, as upstream's concurrent-update 409.
 */
@Injectable()
export class ClaimRunner {
  private readonly turns = new KeyedLock();

  constructor(
    private readonly writer: StreamWriter,
    private readonly commands: CommandRunner,
    @Optional() @Inject(CLAIM_ATTEMPTS) private readonly attempts: number = MAX_ATTEMPTS,
  ) {}

  async run(plan: ClaimPlan, caller: Caller): Promise<void> {
    // Claims touching the same streams take turns in this process instead of racing each other.
    const { streams, consumers, presumed } = await this.streamsOf(plan);
    return this.turns.run(streams, () => this.decideAndAppend(plan, caller, consumers, presumed));
  }

  /**
   * The streams a claim will likely touch, from the consumers as they are now (kept for the first
   * attempt), and those of the consumers presumed new that this process has never seen (not read).
   */
  private async streamsOf(plan: ClaimPlan): Promise<{ streams: string[]; consumers: Map<string, Loaded<unknown>>; presumed: Set<string> }> {
    const presumed = new Set((plan.presumedNew ?? []).map(consumerStream).filter((stream) => this.writer.cached(stream) === undefined));
    const loaded = await Promise.all(plan.consumers.map((uuid) => (presumed.has(consumerStream(uuid))
      ? undefined
      : this.writer.load<ConsumerState, ConsumerEvent>(consumerStream(uuid), evolveConsumer, initialConsumerState))));
    const states = Object.fromEntries(plan.consumers.map((uuid, i) => [uuid, loaded[i]?.state ?? initialConsumerState()]));
    const streams = [...plan.consumers.map(consumerStream), ...plan.providers(states).map(providerStream)];
    const consumers = new Map<string, Loaded<unknown>>();
    plan.consumers.forEach((uuid, i) => {
      if (loaded[i]) consumers.set(consumerStream(uuid), loaded[i]);
    });
    return { streams, consumers, presumed };
  }

  /**
   * A consumer read before this claim's turn came is at least as fresh as what its client knew
   * when it sent the request, so a refusal decided on it is one a fresh read would decide too;
   * anything newer makes the append fail its revision check, and the next attempt reads again.
   */
  private async decideAndAppend(plan: ClaimPlan, caller: Caller, preloaded: Map<string, Loaded<unknown>>, presumed: Set<string>): Promise<void> {
    try {
      await this.commands.run(caller, async (attempt) => {
        const consumers = await loadAll(attempt, plan.consumers, consumerStream, CONSUMER);
        const providers = await loadAll(attempt, plan.providers(consumers), providerStream, PROVIDER);
        const decision = await plan.decide({ consumers, providers });
        for (const [uuid, events] of Object.entries(decision.consumers)) attempt.write(consumerStream(uuid), events);
        for (const [uuid, events] of Object.entries(decision.providers)) attempt.write(providerStream(uuid), events);
      }, { attempts: this.attempts, metadata: plan.metadata, preloaded, presumedNew: (stream) => presumed.has(stream) });
    } catch (error) {
      if (error instanceof WrongExpectedRevision) {
        throw conflict(
          `${plan.racePrefix ?? RACE_PREFIX}Another thread concurrently updated the resource provider data. Please retry your update`,
          ErrorCode.CONCURRENT_UPDATE,
        );
      }
      throw error;
    }
  }
}

async function loadAll<State, Event>(
  attempt: Attempt, uuids: readonly string[], stream: (uuid: string) => string,
  type: { evolve: (s: State, e: Event) => State; initialState: () => State },
): Promise<Record<string, State>> {
  const states = await Promise.all(uuids.map((uuid) => attempt.load(stream(uuid), type)));
  return Object.fromEntries(uuids.map((uuid, i) => [uuid, states[i]]));
}
