import { FORWARDS, ErrorType } from '@kurrent/kurrentdb-client';
import {
  AppendRequest, AppendResult, EventStore, GlobalFilter, LogPosition, RecordedEvent, START, StreamLookup, StreamRange, Subscription, comparePositions,
} from '../port.js';
import { toAppendResult, toAppendStreamRequests, translateAppendError } from './append-mapping.js';
import { appendOutcome } from './unavailable.js';
import { assertMultiStreamAppend } from './capabilities.js';
import { toRecordedEvent } from './event-mapping.js';
import { KurrentClient, connectKurrent } from './kurrent-client.js';
import { countEvents, readAllAfter, readHead, readStreamRange, streamsWith } from './log-reads.js';
import { readRequest, withoutIndexStreams, withRequestIndex } from './request-index.js';
import { indexedStreamsWith, withLookupIndex } from './lookup-index.js';
import { BackfillResult, backfillLookupIndex } from './lookup-backfill.js';
import { IndexedLookup, INDEXED_LOOKUPS } from '../indexed-lookups.js';
import { CatchUpHandlers, CatchUpOptions, subscribeToAllFrom } from './kurrent-subscription.js';

export interface KurrentEventStoreOptions extends CatchUpOptions {
  /** Named in start-up messages (without its password). */
  readonly url?: string;
  readonly probeTimeoutMs?: number;
  /** The lookups indexed on append and answered from their index streams: INDEXED_LOOKUPS, but where a spec names its own. */
  readonly lookups?: readonly IndexedLookup[];
}

/**
 * The event store port on KurrentDB (25.1+). Appends are one multi-stream append session:
 * atomic across streams, with each stream's expected revision checked by the server. Reads
 * and subscriptions leave out system events and events that are not JSON objects.
 */
export class KurrentEventStore implements EventStore {
  private readonly lookups: readonly IndexedLookup[];

  constructor(private readonly client: KurrentClient, private readonly options: KurrentEventStoreOptions = {}) {
    this.lookups = options.lookups ?? INDEXED_LOOKUPS;
  }

  static connect(url: string, options: KurrentEventStoreOptions = {}): KurrentEventStore {
    return new KurrentEventStore(connectKurrent(url), { ...options, url });
  }

  /** Throws KurrentCapabilityError when the server cannot append atomically to several streams. */
  async assertCapabilities(): Promise<void> {
    await assertMultiStreamAppend(this.client, { url: this.options.url ?? 'the configured address', timeoutMs: this.options.probeTimeoutMs });
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }

  async append(requests: readonly AppendRequest[]): Promise<AppendResult> {
    // An empty session is an error on the server; an empty append is a no-op on every adapter.
    if (requests.length === 0) return { position: START, revisions: {} };
    // The lookups' entries first, then the requests', so each request's entry is just before its events (request-index.ts).
    const session = toAppendStreamRequests(withLookupIndex(withRequestIndex(requests), this.lookups));
    try {
      return withoutIndexStreams(toAppendResult(await this.client.multiStreamAppend(session)));
    } catch (error) {
      throw appendOutcome(translateAppendError(error, requests));
    }
  }

  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(stream, { fromRevision: BigInt(fromRevision), direction: FORWARDS })) {
        const recorded = resolved.event && toRecordedEvent(resolved.event);
        if (recorded) events.push(recorded);
      }
    } catch (error) {
      if ((error as { type?: unknown } | null)?.type === ErrorType.STREAM_NOT_FOUND) return [];
      throw error;
    }
    return events;
  }

  readStreamRange(stream: string, range: StreamRange): Promise<RecordedEvent[]> {
    return readStreamRange(this.client, stream, range);
  }

  readAll(from: LogPosition, limit: number, filter?: GlobalFilter): Promise<RecordedEvent[]> {
    return readAllAfter(this.client, from, limit, filter);
  }

  head(): Promise<LogPosition> {
    return readHead(this.client);
  }

  /** Two reads: KurrentDB has no statement to hold both. */
  async readToHead(from: LogPosition, limit: number, filter: Omit<GlobalFilter, 'until'> = {}): Promise<{ head: LogPosition; events: RecordedEvent[] }> {
    const head = await readHead(this.client);
    return { head, events: comparePositions(from, head) < 0 ? await readAllAfter(this.client, from, limit, { ...filter, until: { position: head } }) : [] };
  }

  /** An indexed lookup reads its value's index stream (lookup-index.ts); any other, $all filtered by type on the server (log-reads.ts). */
  async streamsWith(lookup: StreamLookup): Promise<string[]> {
    if (lookup.types.length === 0) return [];
    return await indexedStreamsWith(this.client, this.lookups, lookup) ?? streamsWith(this.client, lookup);
  }

  /** Index entries for the events written before the lookups were indexed: placement-admin index-lookups, once per upgraded log. */
  backfillLookupIndex(): Promise<BackfillResult> {
    return backfillLookupIndex(this.client, this.lookups);
  }

  readRequest(requestId: string): Promise<RecordedEvent[]> {
    return readRequest(this.client, requestId);
  }

  countEvents(after: LogPosition, until?: LogPosition): Promise<number> {
    return countEvents(this.client, after, until);
  }

  /**
   * An append is in $all whole once acknowledged, at a position past every earlier one: nothing
   * can land at or before the head. Appends go on meanwhile: the read models of a log in
   * KurrentDB are projected asynchronously, and a caller that needs them still holds their
   * projector (its checkpoints) itself.
   */
  async holdAppends<T>(work: (head: LogPosition) => Promise<T>): Promise<T> {
    return work(await this.head());
  }

  subscribe(from: LogPosition, handle: (events: RecordedEvent[]) => Promise<void>): Subscription {
    return this.subscribeWithCheckpoints(from, {
      onEvents: handle,
      onError: (error, resumeFrom) => process.emitWarning(
        `KurrentDB subscription to $all dropped (${(error as Error)?.message ?? error}); resuming after ${resumeFrom.commit}/${resumeFrom.prepare}`,
      ),
    });
  }

  /** subscribe() plus the server's checkpoints, for a projector that stores its position. */
  subscribeWithCheckpoints(from: LogPosition, handlers: CatchUpHandlers, options: CatchUpOptions = this.options): Subscription {
    return subscribeToAllFrom(this.client, from, handlers, options);
  }
}
