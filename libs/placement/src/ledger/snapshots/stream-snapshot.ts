import { createHash } from 'node:crypto';
import {
  LogPoint, LogPosition, RecordedEvent, comparePositions, recordedMicros,
} from '#event-store/index.js';

/** A snapshot is taken at every this many revisions of a stream (at revisions N-1, 2N-1, ...). */
export const SNAPSHOT_EVERY = 200;

/** How far into the log the events 0..revision of a stream reach: their latest position and time. */
export interface Reach {
  readonly position: LogPosition;
  readonly micros: bigint;
}

/** A stream's state after its events 0..revision, exactly as folding them from the start gives it. */
export interface StreamSnapshot<S = unknown> {
  readonly stream: string;
  readonly revision: number;
  /** Where the event at `revision` sits: a snapshot of another log (restored, rebuilt elsewhere) does not match it. */
  readonly position: LogPosition;
  readonly reach: Reach;
  readonly state: S;
}

export interface Fold<S> {
  readonly initial: () => S;
  readonly evolve: (state: S, event: RecordedEvent) => S;
}

/** The snapshot holds only events at or before the point, so replaying from it gives the point's state. */
export function usableAt(snapshot: Pick<StreamSnapshot, 'reach'>, point: LogPoint): boolean {
  return 'position' in point ? comparePositions(snapshot.reach.position, point.position) <= 0 : snapshot.reach.micros <= point.time;
}

/** JSON with object keys sorted: jsonb hands keys back in its own order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** Stored with each row: a row whose bytes changed since it was written is never used. */
export function snapshotDigest(snapshot: StreamSnapshot): string {
  const { stream, revision, position, reach, state } = snapshot;
  const key = [stream, revision, `${position.commit}.${position.prepare}`, `${reach.position.commit}.${reach.position.prepare}`, `${reach.micros}`];
  return createHash('sha256').update(canonicalJson([...key, state])).digest('base64url');
}

const later = (a: LogPosition, b: LogPosition) => (comparePositions(a, b) >= 0 ? a : b);

/**
 * Folds a stream's events onto a start (a snapshot, or the initial state at revision -1) and
 * collects the snapshots due on the way. Snapshots are only taken while the events run on from
 * the start without a gap: a read bounded by a point may leave out an event of a lower
 * revision written later in the log, and a state missing it is no prefix of the stream.
 */
export function foldFrom<S>(
  stream: string, start: { state: S; revision: number; reach: Reach | null }, events: readonly RecordedEvent[], fold: Fold<S>,
  every = SNAPSHOT_EVERY,
): { state: S; due: StreamSnapshot<S>[] } {
  let { state, revision, reach } = start;
  let unbroken = true;
  const due: StreamSnapshot<S>[] = [];
  for (const event of events) {
    state = fold.evolve(state, event);
    unbroken &&= event.revision === revision + 1;
    revision = event.revision;
    const micros = recordedMicros(event);
    reach = reach ? { position: later(reach.position, event.position), micros: micros > reach.micros ? micros : reach.micros } : { position: event.position, micros };
    if (unbroken && (revision + 1) % every === 0) due.push({ stream, revision, position: event.position, reach, state });
  }
  return { state, due };
}
