import type { SqlClient } from '../../../event-store/src/index.js';

/** Events of the PostgreSQL log each projection's checkpoint has not passed yet (committed ones only). */
export async function measureProjectionLag(db: SqlClient): Promise<Map<string, number>> {
  const { rows } = await db.query<{ projection: string; lag: number }>(
    `SELECT c.projection,
            (SELECT count(*) FROM es_events e WHERE (e.transaction_id, e.position) > (c.commit_xid, c.position))::int AS lag
     FROM rm_projection_checkpoints c`);
  return new Map(rows.map((row) => [row.projection, row.lag]));
}

/**
 * Samples the lag every `intervalMs` for the metrics and the readiness probe: in asynchronous mode
 * the read models can fall behind the log, and a load balancer should know before clients do.
 */
export function watchProjectionLag(
  db: SqlClient, report: (projection: string, events: number) => void, onError: (error: unknown) => void, intervalMs = 1000,
): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    measureProjectionLag(db)
      .then((lags) => lags.forEach((events, projection) => report(projection, events)))
      .catch(onError)
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
