import { FORWARDS, ErrorType, excludeSystemEvents } from '@kurrent/kurrentdb-client';
import {
  AppendRequest, AppendResult, EventStore, LogPosition, RecordedEvent, START, Subscription, comparePositions,
} from '../port.js';
import { toAppendResult, toAppendStreamRequests, translateAppendError } from './append-mapping.js';
import { appendOutcome } from './unavailable.js';
import { assertMultiStreamAppend } from './capabilities.js';
import { toRecordedEvent } from './event-mapping.js';
import { KurrentClient, connectKurrent } from './kurrent-client.js';
import { CatchUpHandlers, CatchUpOptions, subscribeToAllFrom } from './kurrent-subscription.js';
import { toLogPosition, toReadPosition } from './positions.js';

export interface KurrentEventStoreOptions extends CatchUpOptions {
  /** Named in start-up messages (without its password). */
  readonly url?: string;
  readonly probeTimeoutMs?: number;
}

/**
 * The event store port on KurrentDB (25.1+). Appends are one multi-stream append session:
 * atomic across streams, with each stream's expected revision checked by the server. Reads
 * and subscriptions leave out system events and events that are not JSON objects.
 */
export class KurrentEventStore implements EventStore {
  constructor(private readonly client: KurrentClient, private readonly options: KurrentEventStoreOptions = {}) {}

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
    const session = toAppendStreamRequests(requests);
    try {
      return toAppendResult(await this.client.multiStreamAppend(session));
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

  /**
   * KurrentDB reads $all from a position inclusively, and the port reads strictly after it:
   * the event at `from` comes back and is dropped. The server filters system event types;
   * system streams and foreign events are dropped here, so a page can come back short, and
   * reading goes on until `limit` events or the end of the log. The log is written in order,
   * so no event can appear later behind a position already read.
   */
  async readAll(from: LogPosition, limit: number): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    let cursor = from;
    while (events.length < limit) {
      const asked = limit - events.length + 1;
      let returned = 0;
      let advanced = false;
      const page = this.client.readAll({ fromPosition: toReadPosition(cursor), maxCount: asked, direction: FORWARDS, filter: excludeSystemEvents() });
      for await (const resolved of page) {
        returned++;
        const event = resolved.event;
        if (!event?.position) continue;
        const at = toLogPosition(event.position);
        if (comparePositions(at, cursor) <= 0) continue;
        cursor = at;
        advanced = true;
        const recorded = toRecordedEvent(event);
        if (recorded && events.length < limit) events.push(recorded);
      }
      if (returned < asked || !advanced) break;
    }
    return events;
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
