import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  ClaimDecision, ClaimState, ConsumerEvent, ConsumerState, consumerStream, evolveConsumer, initialConsumerState,
} from '../../../domain/src/allocation/index.js';
import {
  ErrorCode, ProviderEvent, ProviderState, conflict, evolveProvider, initialProviderState, providerStream,
} from '../../../domain/src/index.js';
import { AppendRequest, WrongExpectedRevision } from '../../../event-store/src/index.js';
import { Caller, metadataOf } from '../shared/caller.js';
import { KeyedLock } from '../shared/keyed-lock.js';
import { MAX_ATTEMPTS, StreamWriter } from '../shared/stream-writer.js';

export interface ClaimPlan {
  readonly consumers: readonly string[];
  /** The providers to load once the consumers are known (those named, and those they hold). */
  providers(consumers: ClaimState['consumers']): readonly string[];
  decide(state: ClaimState): Promise<ClaimDecision> | ClaimDecision;
  /** How the endpoint words running out of attempts (upstream's prefix for ConcurrentUpdateDetected). */
  readonly racePrefix?: string;
  /** Added to every event's metadata, beside who asked: how the claim was asked for (e.g. a merge patch). */
  readonly metadata?: Readonly<Record<string, string>>;
}

const RACE_PREFIX = 'Inventory and/or allocations changed while attempting to allocate: ';

/** How many times a claim is decided (upstream's [placement] allocation_conflict_retry_count); 10 when not provided. */
export const CLAIM_ATTEMPTS = Symbol('CLAIM_ATTEMPTS');

/**
 * The one path every claim takes: load the consumers and every provider touched, decide, and
 * append to all of those streams at once with their expected revisions. Losing a race to another
 * writer means deciding again on fresher state; only running out of attempts reaches the client.
 */
@Injectable()
export class ClaimRunner {
  private readonly turns = new KeyedLock();

  constructor(
    private readonly writer: StreamWriter,
    @Optional() @Inject(CLAIM_ATTEMPTS) private readonly attempts: number = MAX_ATTEMPTS,
  ) {}

  async run(plan: ClaimPlan, caller: Caller): Promise<void> {
    // Claims touching the same streams take turns in this process instead of racing each other.
    return this.turns.run(await this.streamsOf(plan), () => this.decideAndAppend(plan, caller));
  }

  /** The streams a claim will likely touch, from the states as they are now. */
  private async streamsOf(plan: ClaimPlan): Promise<string[]> {
    const consumers = await this.loadAll(plan.consumers, consumerStream, (s) =>
      this.writer.load<ConsumerState, ConsumerEvent>(s, evolveConsumer, initialConsumerState));
    const states = Object.fromEntries(Object.entries(consumers).map(([uuid, loaded]) => [uuid, loaded.state]));
    return [...plan.consumers.map(consumerStream), ...plan.providers(states).map(providerStream)];
  }

  private async decideAndAppend(plan: ClaimPlan, caller: Caller): Promise<void> {
    const metadata = { ...metadataOf(caller), ...plan.metadata };
    try {
      await this.writer.execute(async () => {
        const consumers = await this.loadAll(plan.consumers, consumerStream, (s) =>
          this.writer.load<ConsumerState, ConsumerEvent>(s, evolveConsumer, initialConsumerState));
        const states = Object.fromEntries(Object.entries(consumers).map(([uuid, loaded]) => [uuid, loaded.state]));
        const providers = await this.loadAll(plan.providers(states), providerStream, (s) =>
          this.writer.load<ProviderState, ProviderEvent>(s, evolveProvider, initialProviderState));
        const decision = await plan.decide({
          consumers: states,
          providers: Object.fromEntries(Object.entries(providers).map(([uuid, loaded]) => [uuid, loaded.state])),
        });
        const appends: AppendRequest[] = [];
        for (const [uuid, events] of Object.entries(decision.consumers)) {
          appends.push({ stream: consumerStream(uuid), expectedRevision: consumers[uuid].revision, events: events.map((e) => ({ ...e, metadata })) });
        }
        for (const [uuid, events] of Object.entries(decision.providers)) {
          appends.push({ stream: providerStream(uuid), expectedRevision: providers[uuid].revision, events: events.map((e) => ({ ...e, metadata })) });
        }
        return { appends, outcome: undefined };
      }, this.attempts);
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

  private async loadAll<T>(uuids: readonly string[], stream: (uuid: string) => string, load: (stream: string) => Promise<T>) {
    const loaded = await Promise.all(uuids.map((uuid) => load(stream(uuid))));
    return Object.fromEntries(uuids.map((uuid, i) => [uuid, loaded[i]])) as Record<string, T>;
  }
}
