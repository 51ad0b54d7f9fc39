/**
 * The global order's readable bound, an xid8 from the snapshot `s`: only transactions older than
 * every one of THIS database still in flight are read, so a slow writer with a smaller
 * transaction id can never be overtaken and skipped. Other databases' transactions never write
 * this log, so they must not hold its readers back (a long one would stall every reader). The
 * bound and the rows come from one statement, hence one snapshot, but pg_stat_activity is read
 * after that snapshot was taken: a writer of this database still in flight for the snapshot may
 * have committed by then and be listed nowhere. So an in-flight transaction counts unless it is
 * seen running in another database; never the other way round.
 */
export const BELOW_IN_FLIGHT = `COALESCE(
    (SELECT min(x) FROM pg_snapshot_xip(s) AS x
      WHERE x::text::bigint % 4294967296 NOT IN (
        SELECT a.backend_xid::text::bigint FROM pg_stat_activity AS a
        WHERE a.datname IS DISTINCT FROM current_database() AND a.backend_xid IS NOT NULL)),
    pg_snapshot_xmax(s))`;
