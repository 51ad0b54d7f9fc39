import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { EVENT_STORE, EventStore, LogPoint, comparePositions } from '#event-store/index.js';
import { StreamSnapshots } from './snapshot-store.js';
import { Fold, SNAPSHOT_EVERY, foldFrom } from './stream-snapshot.js';

export const SNAPSHOT_INTERVAL = Symbol('SNAPSHOT_INTERVAL');

/**
 * A stream's state at a point of the log: the nearest snapshot at or before the point, then the
 * stream's events from there up to the point. A snapshot is trusted only if its digest matches
 * and the log still holds the event it was taken at (the read starts at that event to check);
 * otherwise it is discarded and the stream replayed from its start: a bad snapshot costs time,
 * never an answer. Snapshots due on the way are written for the next reader.
 */
@Injectable()
export class StreamStates {
  private readonly logger = new Logger('as_of');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Optional() private readonly snapshots: StreamSnapshots | null = null,
    @Optional() @Inject(SNAPSHOT_INTERVAL) private readonly every: number = SNAPSHOT_EVERY,
  ) {}

  async at<S>(stream: string, until: LogPoint, fold: Fold<S>): Promise<S> {
    const snapshot = await this.snapshots?.nearest(stream, until);
    if (snapshot && this.snapshots) {
      const events = await this.store.readStreamRange(stream, { fromRevision: snapshot.revision, until });
      const [first, ...rest] = events;
      if (snapshot.intact && first?.revision === snapshot.revision && comparePositions(first.position, snapshot.position) === 0) {
        return this.finish(stream, { state: snapshot.state as S, revision: snapshot.revision, reach: snapshot.reach }, rest, fold);
      }
      this.logger.warn(`snapshot of ${stream} at revision ${snapshot.revision} does not match the log; replaying the stream from its start`);
      await this.snapshots.discard(stream, snapshot.revision);
    }
    const events = await this.store.readStreamRange(stream, { until });
    return this.finish(stream, { state: fold.initial(), revision: -1, reach: null }, events, fold);
  }

  private async finish<S>(stream: string, start: Parameters<typeof foldFrom<S>>[1], events: Parameters<typeof foldFrom<S>>[2], fold: Fold<S>): Promise<S> {
    const { state, due } = foldFrom(stream, start, events, fold, this.every);
    // A cache write that fails (a read-only replica, a full disk) must not fail the read it serves.
    if (due.length > 0) await this.snapshots?.save(due).catch((error) => this.logger.warn(`snapshots of ${stream} not saved: ${error}`));
    return state;
  }
}
