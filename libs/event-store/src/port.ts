/**
 * The event store port. Adapters: postgres/ (default), kurrent/ (later).
 * Every adapter must pass contract/event-store.contract.ts.
 */

/** Where an event sits in the global order. For PostgreSQL `commit` is the writing
 *  transaction id and `prepare` the row's sequence; readers order by both. */
export interface LogPosition {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const START: LogPosition = { commit: 0n, prepare: 0n };

export function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export interface EventMetadata {
  readonly requestId?: string;
  readonly userId?: string | null;
  readonly projectId?: string | null;
  readonly roles?: readonly string[];
  readonly [key: string]: unknown;
}

export interface NewEvent {
  readonly type: string;
  readonly data: object;
  readonly metadata?: EventMetadata;
}

export interface RecordedEvent<Data = Record<string, unknown>> {
  readonly stream: string;
  readonly revision: number;
  readonly position: LogPosition;
  readonly type: string;
  readonly data: Data;
  readonly metadata: EventMetadata;
  readonly recordedAt: Date;
  /**
   * The same moment in microseconds since the epoch, where the store keeps that precision
   * (PostgreSQL); absent, it is recordedAt's milliseconds. See recordedMicros().
   */
  readonly recordedAtMicros?: bigint;
}

/**
 * An event as the transaction appending it knows it: all but its position, which the log gives
 * it only as it is written. The inline projections see events so, and never read a position.
 */
export type AppendedEvent<Data = Record<string, unknown>> = Omit<RecordedEvent<Data>, 'position'>;

/** When the event was recorded, in microseconds since the epoch, as precisely as its store keeps it. */
export function recordedMicros(event: Pick<RecordedEvent, 'recordedAt' | 'recordedAtMicros'>): bigint {
  return event.recordedAtMicros ?? BigInt(event.recordedAt.getTime()) * 1000n;
}

/** -1 means the stream must not exist yet; 'any' skips the check. */
export type ExpectedRevision = number | 'any';
export const NO_STREAM = -1;

export interface AppendRequest {
  readonly stream: string;
  readonly expectedRevision: ExpectedRevision;
  readonly events: readonly NewEvent[];
}

export interface AppendResult {
  readonly position: LogPosition;
  readonly revisions: Readonly<Record<string, number>>;
}

export class WrongExpectedRevision extends Error {
  constructor(readonly stream: string, readonly expected: ExpectedRevision) {
    super(`stream ${stream} is not at revision ${expected}`);
  }
}

/**
 * A point of the log that reads stop at: the event at a position and everything before it in
 * the global order, or every event recorded at or before a moment (microseconds since the
 * epoch, compared with recordedMicros()).
 */
export type LogPoint = { readonly position: LogPosition } | { readonly time: bigint };

export function isAtOrBefore(event: Pick<RecordedEvent, 'position' | 'recordedAt' | 'recordedAtMicros'>, point: LogPoint): boolean {
  return 'position' in point ? comparePositions(event.position, point.position) <= 0 : recordedMicros(event) <= point.time;
}

/** Which part of one stream to read. */
export interface StreamRange {
  /** The first revision read: the lowest forwards (default 0), the highest backwards (default the last). */
  readonly fromRevision?: number;
  readonly direction?: 'forwards' | 'backwards';
  /** At most this many events (default: all). */
  readonly limit?: number;
  /**
   * The stream as it stood at this point: its events up to the first one past the point, in
   * revision order (forwards, from fromRevision; backwards, the stream's run from revision 0).
   * A PostgreSQL stream can hold a revision before the one under it in the global order (its
   * transaction began first and waited for the stream); a run never skips a revision, so the
   * state folded from it is one the stream really had. Reading stops where the run ends.
   */
  readonly until?: LogPoint;
}

/** Narrows a read of the global order; every condition must hold. */
export interface GlobalFilter {
  /** Only events at or before this point. */
  readonly until?: LogPoint;
  /** Only events of these types. */
  readonly types?: readonly string[];
  /** false: each event comes with an empty metadata object, for replays that never read it (less to read and parse). */
  readonly metadata?: false;
}

/**
 * A lookup of streams by a value in their events' data: the streams holding an event of one of
 * `types`, at or before `until` when given, whose data has at `field` the string `value`, or an
 * array holding it (AggregatesSet's `aggregates`).
 */
export interface StreamLookup {
  readonly types: readonly string[];
  /** A top-level key of the events' data: letters, digits and underscores. */
  readonly field: string;
  readonly value: string;
  readonly until?: LogPoint;
}

/** holdAppends could not hold the appends back quickly enough (they hold their streams longer); nothing was done. */
export class AppendsBusy extends Error {
  constructor() {
    super('appends could not be held back in time');
  }
}

export interface Subscription {
  close(): Promise<void>;
}

export interface EventStore {
  /** Atomic over every stream: all events are written, or none. */
  append(requests: readonly AppendRequest[]): Promise<AppendResult>;
  /**
   * An append that rests on what appends still on their way will leave (the promises `append`
   * gave for them): written only if every one of them is, in the same transaction where the store
   * can, else refused with WrongExpectedRevision. A store without it is given such an append once
   * those are answered (CommandRunner): their revisions alone cannot tell, as another writer may
   * have taken the revision a refused one expected to write.
   */
  appendAfter?(earlier: readonly Promise<AppendResult>[], requests: readonly AppendRequest[]): Promise<AppendResult>;
  readStream(stream: string, fromRevision?: number): Promise<RecordedEvent[]>;
  /** Part of one stream in revision order (descending backwards); [] for a stream never written. */
  readStreamRange(stream: string, range: StreamRange): Promise<RecordedEvent[]>;
  /**
   * Events strictly after `from`, in global order, never skipping one still being committed;
   * with a filter, only those it lets through (`limit` counts what is returned).
   */
  readAll(from: LogPosition, limit: number, filter?: GlobalFilter): Promise<RecordedEvent[]>;
  /**
   * A position every append acknowledged before the call is at or before (START for an empty
   * log): read the global order up to it and you have seen every such write.
   */
  head(): Promise<LogPosition>;
  /**
   * head(), and readAll(from, limit, { ...filter, until: that head }), in one read where the
   * store can: what a reader that must reflect every acknowledged append asks before answering.
   * Fewer events than `limit` with the last short of the head means more is to come.
   */
  readToHead(from: LogPosition, limit: number, filter?: Omit<GlobalFilter, 'until'>): Promise<{ head: LogPosition; events: RecordedEvent[] }>;
  /**
   * The streams a lookup finds, each once, in the global order of its first matching event. Its
   * cost follows the matches where the store indexes the lookup: PostgreSQL indexes those in
   * INDEXED_LOOKUPS (indexed-lookups.ts) and answers any other by scanning the log; KurrentDB
   * likewise, from index streams (kurrent/lookup-index.ts). A request may ask only for an indexed lookup.
   */
  streamsWith(lookup: StreamLookup): Promise<string[]>;
  /** Every event written with this metadata.requestId, in global order. */
  readRequest(requestId: string): Promise<RecordedEvent[]>;
  /**
   * How many events lie strictly after `after`, up to `until` when given: an operator's question
   * (status' lag, a replay's progress), which a store without an index for it answers by reading.
   */
  countEvents(after: LogPosition, until?: LogPosition): Promise<number>;
  /**
   * Runs `work` with a head that no append will ever land at or before, for the short moments a
   * rebuild swaps its tables in or a verify takes its snapshot of the read models. A store whose
   * appends run inline projections (PostgreSQL) also holds every append back until `work` ends,
   * after letting those in flight finish: read models read meanwhile show exactly the log up to
   * the head. A store that throws AppendsBusy could not do so in time; try again.
   */
  holdAppends<T>(work: (head: LogPosition) => Promise<T>): Promise<T>;
  subscribe(from: LogPosition, handle: (events: RecordedEvent[]) => Promise<void>): Subscription;
}

export const EVENT_STORE = Symbol('EVENT_STORE');
