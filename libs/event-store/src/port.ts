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

export interface Subscription {
  close(): Promise<void>;
}

export interface EventStore {
  /** Atomic over every stream: all events are written, or none. */
  append(requests: readonly AppendRequest[]): Promise<AppendResult>;
  readStream(stream: string, fromRevision?: number): Promise<RecordedEvent[]>;
  /** Events strictly after `from`, in global order, never skipping one still being committed. */
  readAll(from: LogPosition, limit: number): Promise<RecordedEvent[]>;
  subscribe(from: LogPosition, handle: (events: RecordedEvent[]) => Promise<void>): Subscription;
}

export const EVENT_STORE = Symbol('EVENT_STORE');
