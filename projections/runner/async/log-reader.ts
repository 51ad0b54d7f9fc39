import type { EventStore, LogPosition, RecordedEvent } from '#event-store/index.js';

/** Events strictly after `from`, in the log's gap-free order, at most `limit`. */
export type LogReader = (from: LogPosition, limit: number) => Promise<RecordedEvent[]>;

/**
 * The store's own gap-free reader. PostgreSQL's waits only for writers of this database (a long
 * transaction in another one, a test's DROP DATABASE, must not stall the read models); KurrentDB
 * has no writers in flight to wait for.
 */
export const storeReader = (store: EventStore): LogReader => (from, limit) => store.readAll(from, limit);
