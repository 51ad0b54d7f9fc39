import { comparePositions, EventStore, LogPosition, RecordedEvent, START } from '#event-store/index.js';
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
 * same position, or null. Anything else (another format, a bad checksum, a payload that does not
 * decode, a log rewound or replaced since) is passed over: it only costs a longer replay.
 */
export async function loadNewestSnapshot(snapshots: CandidateSnapshotStore, log: EventStore, skipped: (why: string) => void = () => undefined): Promise<PositionedView | null> {
  for (const head of await snapshots.heads(SNAPSHOT_FORMAT)) {
    if (!head.last || !(await logStillHolds(log, head))) {
      skipped(`snapshot ${head.id}: the log does not hold its last event at its position`);
      continue;
    }
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

async function logStillHolds(log: EventStore, head: SnapshotHead): Promise<boolean> {
  const [event] = await log.readStream(head.last!.stream, head.last!.revision);
  return event !== undefined && event.revision === head.last!.revision && comparePositions(event.position, head.position) === 0;
}

/**
 * Stores the view as of its position; false if another writer's is as new or is being written.
 * Each part's text is made in a turn of the event loop of its own: a serving process writes
 * snapshots in the background, and its requests wait at most one part's encoding (a few ms),
 * not the whole view's (0.1-0.4 s on the bench cloud).
 */
export async function storeSnapshot(snapshots: CandidateSnapshotStore, at: PositionedView): Promise<boolean> {
  const payload: string[] = [];
  for (const part of viewParts(at.view)) {
    payload.push(part);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return snapshots.write({ format: SNAPSHOT_FORMAT, position: at.position, events: at.events, last: at.last, payload });
}

/** Folds the log into a view from `from` (a snapshot) on; up to `upTo` included if given, else to its end. */
export async function replayLog(log: EventStore, from: PositionedView | null = null, upTo?: LogPosition): Promise<PositionedView> {
  const view = from?.view ?? emptyView();
  let position = from?.position ?? START;
  let events = from?.events ?? 0;
  let last = from?.last ?? null;
  for (;;) {
    const batch: RecordedEvent[] = await log.readAll(position, BATCH);
    for (const event of batch) {
      if (upTo && comparePositions(event.position, upTo) > 0) return { view, position, events, last };
      applyEvent(view.index, view.names, event, view.projects);
      position = event.position;
      last = { stream: event.stream, revision: event.revision };
      events++;
    }
    if (batch.length < BATCH) return { view, position, events, last };
  }
}
