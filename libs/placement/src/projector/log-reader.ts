import type { EventStore, LogPosition, RecordedEvent } from '../../../event-store/src/index.js';
import { readHorizon, readTail } from '../candidates/log-horizon.js';
import type { ReadDb } from '../shared/read-db.js';

/** Events strictly after `from`, in the log's gap-free order, at most `limit`. */
export type LogReader = (from: LogPosition, limit: number) => Promise<RecordedEvent[]>;

/**
 * The PostgreSQL log read up to the oldest writer of this database still running, like the
 * candidate index does: EventStore.readAll stops at the oldest writer of the whole cluster, and
 * a long transaction in another database (a test's DROP DATABASE, a migration) would stall
 * every write waiting for the read models for as long as it runs.
 */
export function databaseLocalReader(db: ReadDb): LogReader {
  return async (from, limit) => readTail(db, from, (await readHorizon(db)).finishedHere, limit);
}

/** Any other store (KurrentDB has no gaps to wait for): its own reader. */
export const storeReader = (store: EventStore): LogReader => (from, limit) => store.readAll(from, limit);
