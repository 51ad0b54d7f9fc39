import type { EventStore, LogPosition, SqlClient } from '#event-store/index.js';
import { comparePositions } from '#event-store/index.js';

/** Lags are counted up to here: past it, the figure says "at least" and reading more only costs. */
export const LAG_COUNT_CAP = 1_000;

/**
 * Events of the log each projection's checkpoint has not passed yet (readable ones only, at
 * most LAG_COUNT_CAP: the readiness probe only asks whether it is 0), read through the store's
 * port so both log stores are measured. One read from the furthest-behind checkpoint serves
 * every projection.
 */
export async function measureProjectionLag(db: SqlClient, store: EventStore): Promise<Map<string, number>> {
  const { rows } = await db.query<{ projection: string; commit: string; position: string }>(
    'SELECT projection, commit_xid::text AS commit, position::text AS position FROM rm_projection_checkpoints');
  const checkpoints = rows.map((row) => ({ projection: row.projection, at: { commit: BigInt(row.commit), prepare: BigInt(row.position) } }));
  if (checkpoints.length === 0) return new Map();
  const oldest = checkpoints.reduce<LogPosition>((low, { at }) => (comparePositions(at, low) < 0 ? at : low), checkpoints[0].at);
  const behind = await store.readAll(oldest, LAG_COUNT_CAP);
  return new Map(checkpoints.map(({ projection, at }) => {
    const passed = behind.filter((event) => comparePositions(event.position, at) > 0).length;
    return [projection, Math.min(LAG_COUNT_CAP, passed)];
  }));
}

/**
 * Samples the lag every `intervalMs` for the metrics and the readiness probe: in asynchronous mode
 * the read models can fall behind the log, and a load balancer should know before clients do.
 */
export function watchProjectionLag(
  db: SqlClient, store: EventStore, report: (projection: string, events: number) => void, onError: (error: unknown) => void,
  intervalMs = 1000,
): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    measureProjectionLag(db, store)
      .then((lags) => lags.forEach((events, projection) => report(projection, events)))
      .catch(onError)
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
