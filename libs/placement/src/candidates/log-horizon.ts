import type { LogPosition, RecordedEvent } from '../../../event-store/src/index.js';
import { toRecordedEvent } from '../../../event-store/src/postgres/rows.js';
import type { ReadDb } from '../shared/read-db.js';

/** Where the writers stand, as transaction ids. */
export interface Horizon {
  /** Not yet begun: every write acknowledged before the horizon was read is below it. */
  readonly next: bigint;
  /** Every transaction of the whole cluster below it has finished: what EventStore.readAll reads up to. */
  readonly finished: bigint;
  /** Every transaction of this database below it has finished (>= finished). */
  readonly finishedHere: bigint;
}

/**
 * PostgreSQL's view of the log's writers, in one statement. The database-local bound needs
 * pg_stat_activity, so it is only computed when something is running at all.
 */
export async function readHorizon(db: ReadDb): Promise<Horizon> {
  const { rows } = await db.query<{ xmin: string; xmax: string; here: string | null }>(
    `SELECT pg_snapshot_xmin(s)::text AS xmin, pg_snapshot_xmax(s)::text AS xmax,
       CASE WHEN pg_snapshot_xmin(s) = pg_snapshot_xmax(s) THEN NULL ELSE
         (SELECT min(x)::text FROM pg_snapshot_xip(s) AS x
           WHERE x::text::bigint % 4294967296 IN (
             SELECT backend_xid::text::bigint FROM pg_stat_activity
             WHERE datname = current_database() AND backend_xid IS NOT NULL)) END AS here
     FROM pg_current_snapshot() AS s`);
  const next = BigInt(rows[0].xmax);
  const finished = BigInt(rows[0].xmin);
  return { next, finished, finishedHere: rows[0].here === null ? next : BigInt(rows[0].here) };
}

/**
 * The log's events after `from` in the global order, from transactions below `below` only: the
 * same order and gap-free rule as EventStore.readAll, with the database-local bound.
 */
export async function readTail(db: ReadDb, from: LogPosition, below: bigint, limit: number): Promise<RecordedEvent[]> {
  const { rows } = await db.query(
    `SELECT position, transaction_id, stream_id, revision, type, data, metadata, recorded_at FROM es_events
     WHERE transaction_id < $3::text::xid8 AND (transaction_id, position) > ($1::text::xid8, $2::bigint)
     ORDER BY transaction_id, position LIMIT $4`,
    [from.commit.toString(), from.prepare.toString(), below.toString(), limit]);
  return rows.map(toRecordedEvent);
}
