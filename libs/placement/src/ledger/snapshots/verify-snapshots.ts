import { EventStore, comparePositions } from '#event-store/index.js';
import type { ReadDb } from '../../shared/read-db.js';
import { foldOfStream } from './folds.js';
import { StreamSnapshots } from './snapshot-store.js';
import { canonicalJson, foldFrom } from './stream-snapshot.js';

export interface InvalidSnapshot {
  readonly stream: string;
  readonly revision: number;
  readonly reason: string;
}

export interface SnapshotCheck {
  readonly checked: number;
  readonly invalid: readonly InvalidSnapshot[];
}

/**
 * Every stream snapshot against the log: each stream with snapshots is replayed from its start
 * once, and each snapshot must hold exactly the state, position and reach of its revision.
 * as_of never uses a snapshot whose digest or position is wrong; a wrong state under a right
 * digest can only come from a bug in the fold or the writer, which is what this looks for.
 */
export async function verifySnapshots(db: ReadDb, store: EventStore): Promise<SnapshotCheck> {
  const snapshots = new StreamSnapshots(db);
  const invalid: InvalidSnapshot[] = [];
  let checked = 0;
  for (const stream of await snapshots.streams()) {
    const stored = await snapshots.ofStream(stream);
    checked += stored.length;
    const fold = foldOfStream(stream);
    const wrong = (revision: number, reason: string) => invalid.push({ stream, revision, reason });
    if (!fold) {
      for (const snapshot of stored) wrong(snapshot.revision, 'a stream of a kind that has no snapshots');
      continue;
    }
    const byRevision = new Map(stored.map((snapshot) => [snapshot.revision, snapshot]));
    const events = await store.readStreamRange(stream, { limit: stored[stored.length - 1].revision + 1 });
    let current: Parameters<typeof foldFrom<unknown>>[1] = { state: fold.initial(), revision: -1, reach: null };
    for (const event of events) {
      // The whole stream, read without a bound, runs on without a gap: every revision is due.
      const taken = foldFrom(stream, current, [event], fold, 1).due[0];
      current = { state: taken.state, revision: event.revision, reach: taken.reach };
      const snapshot = byRevision.get(event.revision);
      if (!snapshot) continue;
      byRevision.delete(event.revision);
      if (!snapshot.intact) wrong(snapshot.revision, 'changed since it was written (its digest does not match)');
      else if (comparePositions(event.position, snapshot.position) !== 0) wrong(snapshot.revision, 'not of this log: its event is elsewhere in the log');
      else if (canonicalJson(taken.state) !== canonicalJson(snapshot.state)) wrong(snapshot.revision, "its state differs from the log's");
      else if (comparePositions(taken.reach.position, snapshot.reach.position) !== 0 || taken.reach.micros !== snapshot.reach.micros) {
        wrong(snapshot.revision, "its reach (latest position and time) differs from the log's");
      }
    }
    for (const revision of byRevision.keys()) wrong(revision, 'not of this log: the stream has no event at that revision');
  }
  return { checked, invalid };
}
