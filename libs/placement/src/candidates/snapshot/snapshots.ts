import { comparePositions, EventStore, isAtOrBefore, LogPoint, LogPosition, RecordedEvent, START } from '#event-store/index.js';
import { CandidateView, emptyView } from '../candidate-view.js';
import { applyEvent } from '../index/apply-event.js';
import { UnreadableSnapshot } from '../index/provider-index.js';
import { CandidateSnapshotStore, SnapshotHead } from './snapshot-store.js';
import { SNAPSHOT_FORMAT, ViewDecoder, viewParts } from './view-codec.js';

/** A view and where in the log it stands. */
export interface PositionedView {
  readonly view: CandidateView;
  readonly position: LogPosition;
  readonly events: number;
  readonly last: SnapshotHead['last'];
}

const BATCH = 5000;

/**
 * The newest stored snapshot this build can read whose last event the log still holds at the
 * same position, or null; with `before`, the newest of those at or before that point of the log.
 * Anything else (another format, a bad checksum, a payload that does not decode, a log rewound or
 * replaced since) is passed over: it only costs a longer replay.
 */
export async function loadNewestSnapshot(
  snapshots: CandidateSnapshotStore, log: EventStore, skipped: (why: string) => void = () => undefined, before?: LogPoint,
): Promise<PositionedView | null> {
  for (const head of await snapshots.heads(SNAPSHOT_FORMAT)) {
    const last = head.last ? await heldLastEvent(log, head) : undefined;
    if (!last) {
      skipped(`snapshot ${head.id}: the log does not hold its last event at its position`);
      continue;
    }
    if (before && !isAtOrBefore(last, before)) continue;
    try {
      const decoder = new ViewDecoder();
      if (!(await snapshots.readParts(head, (part) => decoder.add(part)))) {
        skipped(`snapshot ${head.id}: its parts do not match its checksum`);
        continue;
      }
      return { view: decoder.finish(), position: head.position, events: head.events, last: head.last };
    } catch (error) {
      if (!(error instanceof UnreadableSnapshot)) throw error;
      skipped(`snapshot ${head.id}: ${error.message}`);
    }
  }
  return null;
}

/** The snapshot's last event, where the log still holds it at the snapshot's position. */
async function heldLastEvent(log: EventStore, head: SnapshotHead): Promise<RecordedEvent | undefined> {
  const [event] = await log.readStream(head.last!.stream, head.last!.revision);
  return event !== undefined && event.revision === head.last!.revision && comparePositions(event.position, head.position) === 0 ? event : undefined;
}

/**
 * The view's parts, each made in a turn of the event loop of its own: a serving process writes
 * snapshots in the background, and its requests wait at most one part's encoding, not the whole
 * view's. The caller keeps the view from changing meanwhile (the index's lease).
 */
export async function encodeSnapshot(view: CandidateView): Promise<string[]> {
  const parts: string[] = [];
  for (const part of viewParts(view)) {
    parts.push(part);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return parts;
}

/** Stores the view as of its position (its parts, when already encoded); false if another writer's is as new or is being written. */
export async function storeSnapshot(snapshots: CandidateSnapshotStore, at: PositionedView, payload?: string[]): Promise<boolean> {
  const parts = payload ?? await encodeSnapshot(at.view);
  return snapshots.write({ format: SNAPSHOT_FORMAT, position: at.position, events: at.events, last: at.last, payload: parts });
}

/**
 * Folds the log into a view from `from` (a snapshot) on: with `upTo`, the events at or before
 * that point (a position, or a moment: every event recorded by then), else to the log's end.
 */
export async function replayLog(log: EventStore, from: PositionedView | null = null, upTo?: LogPoint): Promise<PositionedView> {
  const view = from?.view ?? emptyView();
  let position = from?.position ?? START;
  let events = from?.events ?? 0;
  let last = from?.last ?? null;
  for (;;) {
    const batch: RecordedEvent[] = await log.readAll(position, BATCH, upTo ? { until: upTo } : undefined);
    for (const event of batch) {
      applyEvent(view.index, view.names, event, view.projects);
      position = event.position;
      last = { stream: event.stream, revision: event.revision };
      events++;
    }
    if (batch.length < BATCH) return { view, position, events, last };
  }
}
