import type { Pool } from 'pg';
import {
  AppendRequest, AppendResult, EventStore, GlobalFilter, LogPosition, RecordedEvent, StreamLookup, StreamRange, Subscription,
} from '../port.js';
import { EVENT_STORE_SCHEMA } from './event-store-schema.js';
import { InlineProjector } from './sql-client.js';
import { appendAlone, appendTogether } from './log-appends.js';
import { countEvents, pollLog, readAll, readHead, readRequest, readStream, readStreamRange, readToHead } from './log-reads.js';
import { holdAppends } from './hold-appends.js';
import { streamsWith } from './stream-lookup.js';
import { AppendBatches } from './append-batches.js';
import { appendOnceAnswered } from '../append-after.js';

export interface PostgresEventStoreOptions {
  readonly pollIntervalMs?: number;
}

/** The event store port on PostgreSQL: appends in log-appends.ts (one path, es_append), reads in log-reads.ts. */
export class PostgresEventStore implements EventStore {
  private readonly projectors: InlineProjector[] = [];
  /** With inline projections, appends that arrive together share one transaction (append-batches.ts). */
  private batches: AppendBatches | null = null;

  constructor(private readonly pool: Pool, private readonly options: PostgresEventStoreOptions = {}) {}

  async ensureSchema(): Promise<void> {
    await this.pool.query(EVENT_STORE_SCHEMA);
  }

  /** Inline projections run in the append's transaction (read-your-writes without waiting). */
  addInlineProjector(projector: InlineProjector): void {
    this.projectors.push(projector);
    this.batches ??= new AppendBatches({
      alone: (ordered) => appendAlone(this.pool, this.projectors, ordered),
      together: (batch, chained) => appendTogether(this.pool, this.projectors, batch, chained),
    });
  }

  append(requests: readonly AppendRequest[]): Promise<AppendResult> {
    // In the caller's order: the log records an append's events as given (a parent before its
    // child), and es_append locks the streams in code-point order itself.
    return this.batches ? this.batches.append(requests) : appendAlone(this.pool, this.projectors, requests);
  }

  appendAfter(earlier: readonly Promise<AppendResult>[], requests: readonly AppendRequest[]): Promise<AppendResult> {
    return this.batches ? this.batches.appendAfter(earlier, requests) : appendOnceAnswered(earlier, requests, (ordered) => this.append(ordered));
  }

  readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    return readStream(this.pool, stream, fromRevision);
  }

  readStreamRange(stream: string, range: StreamRange): Promise<RecordedEvent[]> {
    return readStreamRange(this.pool, stream, range);
  }

  readAll(from: LogPosition, limit: number, filter?: GlobalFilter): Promise<RecordedEvent[]> {
    return readAll(this.pool, from, limit, filter);
  }

  readToHead(from: LogPosition, limit: number, filter: Omit<GlobalFilter, 'until'> = {}): Promise<{ head: LogPosition; events: RecordedEvent[] }> {
    return readToHead(this.pool, from, limit, filter);
  }

  head(): Promise<LogPosition> {
    return readHead(this.pool);
  }

  streamsWith(lookup: StreamLookup): Promise<string[]> {
    return streamsWith(this.pool, lookup);
  }

  readRequest(requestId: string): Promise<RecordedEvent[]> {
    return readRequest(this.pool, requestId);
  }

  countEvents(after: LogPosition, until?: LogPosition): Promise<number> {
    return countEvents(this.pool, after, until);
  }

  holdAppends<T>(work: (head: LogPosition) => Promise<T>): Promise<T> {
    return holdAppends(this.pool, work);
  }

  subscribe(from: LogPosition, handle: (events: RecordedEvent[]) => Promise<void>): Subscription {
    return pollLog(this.pool, from, this.options.pollIntervalMs ?? 50, handle);
  }
}
