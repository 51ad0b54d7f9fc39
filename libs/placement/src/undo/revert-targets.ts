import { Inject, Injectable } from '@nestjs/common';
import { ProviderState } from '#domain/index.js';
import { ConsumerState } from '#domain/consumer/index.js';
import { EVENT_STORE, EventStore, RecordedEvent } from '#event-store/index.js';
import { formatMicros } from '../ledger/ledger-event.js';
import { CONSUMER_FOLD, PROVIDER_FOLD } from '../ledger/snapshots/folds.js';
import { StreamStates } from '../ledger/snapshots/stream-states.js';
import { Fold } from '../ledger/snapshots/stream-snapshot.js';
import { recordedMicros } from '#event-store/index.js';

/** One stream a request wrote: its state just before the request, and the last revision the request wrote. */
export interface RevertedStream<State> {
  readonly stream: string;
  readonly uuid: string;
  readonly before: State;
  readonly lastRevision: number;
  /** Whether the request changed more than the provider's side of allocations (which follows the consumers). */
  readonly ownChanges: boolean;
}

export interface RequestStreams {
  readonly providers: RevertedStream<ProviderState>[];
  readonly consumers: RevertedStream<ConsumerState>[];
}

/** A later event on a stream the revert would take back: who wrote it, when. */
export interface LaterWrite {
  readonly stream: string;
  readonly revision: number;
  readonly type: string;
  readonly request_id: string | null;
  readonly user_id: string | null;
  readonly time: string;
}

/** A provider's side of a claim follows its consumers: their streams decide whether it is taken back. */
const ALLOCATION_SIDE = 'ProviderAllocationsChanged';

/**
 * The streams one request wrote, each with its state just before the request (the as-of
 * machinery at the event before the request's first on that stream). Name streams follow their
 * providers and are left out; classes and traits have no state to go back to here.
 */
@Injectable()
export class RevertTargets {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore, private readonly states: StreamStates) {}

  async resolve(events: readonly RecordedEvent[]): Promise<RequestStreams> {
    const byStream = new Map<string, RecordedEvent[]>();
    for (const event of events) byStream.set(event.stream, [...(byStream.get(event.stream) ?? []), event]);
    const providers: RevertedStream<ProviderState>[] = [];
    const consumers: RevertedStream<ConsumerState>[] = [];
    for (const [stream, written] of byStream) {
      const first = Math.min(...written.map((e) => e.revision));
      const lastRevision = Math.max(...written.map((e) => e.revision));
      const ownChanges = written.some((e) => e.type !== ALLOCATION_SIDE);
      if (stream.startsWith('provider-')) {
        providers.push({ stream, uuid: stream.slice('provider-'.length), before: await this.before(stream, first, PROVIDER_FOLD), lastRevision, ownChanges });
      } else if (stream.startsWith('consumer-')) {
        consumers.push({ stream, uuid: stream.slice('consumer-'.length), before: await this.before(stream, first, CONSUMER_FOLD), lastRevision, ownChanges });
      }
    }
    return { providers, consumers };
  }

  /**
   * What was written on the stream after the request: a consumer's every later event; a provider's
   * later events of its own (a later claim on it by other consumers is not the request's business).
   */
  async laterWrites(target: RevertedStream<unknown>): Promise<LaterWrite[]> {
    const later = await this.store.readStream(target.stream, target.lastRevision + 1);
    return later.filter((e) => target.stream.startsWith('consumer-') || e.type !== ALLOCATION_SIDE).map((e) => ({
      stream: e.stream, revision: e.revision, type: e.type, request_id: e.metadata.requestId ?? null,
      user_id: (e.metadata.userId as string | null | undefined) ?? null, time: formatMicros(recordedMicros(e)),
    }));
  }

  private async before<S>(stream: string, firstRevision: number, fold: Fold<S>): Promise<S> {
    if (firstRevision === 0) return fold.initial();
    const [previous] = await this.store.readStreamRange(stream, { fromRevision: firstRevision - 1, limit: 1 });
    return this.states.at(stream, { position: previous.position }, fold);
  }
}
