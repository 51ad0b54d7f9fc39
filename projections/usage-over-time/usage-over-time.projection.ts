import { send, type RecordedEvent, type SqlClient } from '#event-store/index.js';
import { Projection } from '../runner/projection.js';
import { firstChange, hourOf } from './hour-summary.js';
import { Claim, holdingOf, Move, movesOf, SeriesChange, seriesChanges } from './usage-series.js';

export const USAGE_OVER_TIME_EVENTS = ['ConsumerAllocationsReplaced', 'ConsumerRemoved'] as const;

interface ConsumerRow {
  revision: string;
  project_id: string;
  user_id: string;
  consumer_type: string | null;
  holding: Record<string, number>;
}

/**
 * Usage per project, user and consumer type, per class, in UTC hours: each consumer event
 * becomes level changes of the series it moves, folded into the hour it happened in. An hour
 * without changes has no row; its level is carried over when reading, so a holding that lasts
 * a month costs nothing until it changes, and the hour holding "now" needs no timer.
 *
 * Idempotent: each consumer remembers the stream revision last applied and older events are
 * skipped, so replaying the log again changes nothing. Order-independent across consumers:
 * everything stored is a sum except an hour's peak, which is recomputed from the hour's changes
 * whenever a change arrives that is not the hour's latest.
 */
export const usageOverTimeProjection: Projection = {
  name: 'usage-over-time',
  handles: USAGE_OVER_TIME_EVENTS,
  async apply(tx: SqlClient, event: RecordedEvent<any>) {
    const consumer = event.stream.slice('consumer-'.length);
    const after: Claim | null = event.type === 'ConsumerAllocationsReplaced'
      ? { projectId: event.data.project_id, userId: event.data.user_id, consumerType: event.data.consumer_type ?? null, holding: holdingOf(event.data.allocations) }
      : null;
    if (event.revision === 0 && after) {
      // A consumer's first event: it held nothing before, so what it changes need not wait for
      // the swap's answer. One statement stores the consumer and folds the changes, the latter
      // only if it stored the row (a replay that finds the row applied changes nothing).
      const changes = seriesChanges(null, after);
      if (changes.length > 0) return recordChanges(tx, movesOf(null, after), changes, event.recordedAt.getTime(), { consumer, claim: after });
    }
    const known = await swapConsumer(tx, consumer, event.revision, after);
    if (known && Number(known.revision) >= event.revision) return;
    const before: Claim | null = known
      ? { projectId: known.project_id, userId: known.user_id, consumerType: known.consumer_type, holding: known.holding }
      : null;
    await recordChanges(tx, movesOf(before, after), seriesChanges(before, after), event.recordedAt.getTime());
  },
};

/**
 * Stores what the consumer holds from this revision on and answers what it held before, in one
 * statement (a CTE reads the row as it was before the write). A revision already applied
 * changes nothing. A removal keeps the row, holding nothing, for its revision; a removal of a
 * consumer never seen writes nothing: there is nothing to take back and no one to charge.
 */
async function swapConsumer(tx: SqlClient, consumer: string, revision: number, after: Claim | null): Promise<ConsumerRow | undefined> {
  const write = after
    ? `INSERT INTO rm_usage_consumers (consumer_uuid, revision, project_id, user_id, consumer_type, holding)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (consumer_uuid) DO UPDATE SET revision = EXCLUDED.revision, project_id = EXCLUDED.project_id,
         user_id = EXCLUDED.user_id, consumer_type = EXCLUDED.consumer_type, holding = EXCLUDED.holding
       WHERE rm_usage_consumers.revision < EXCLUDED.revision`
    : `UPDATE rm_usage_consumers SET revision = $2, holding = '{}' WHERE consumer_uuid = $1 AND revision < $2`;
  const params = after
    ? [consumer, revision, after.projectId, after.userId, after.consumerType, JSON.stringify(after.holding)]
    : [consumer, revision];
  const { rows } = await tx.query<ConsumerRow>(
    `WITH before AS (SELECT revision, project_id, user_id, consumer_type, holding FROM rm_usage_consumers WHERE consumer_uuid = $1),
          written AS (${write})
     SELECT * FROM before`, params);
  return rows[0];
}

/**
 * The fold: one statement adds the claimants' moves and folds the series' changes into their
 * hour rows. With `first`, it also stores a consumer's first claim, and folds only if that
 * stored the row (the gate). Built once per form, so each is one prepared statement.
 */
function foldStatement(first: boolean): string {
  const gate = first ? ' WHERE EXISTS (SELECT 1 FROM written)' : '';
  return `WITH ${first ? `written AS (
       INSERT INTO rm_usage_consumers (consumer_uuid, revision, project_id, user_id, consumer_type, holding)
       VALUES ($14, 0, $15, $16, $17, $18) ON CONFLICT (consumer_uuid) DO NOTHING RETURNING 1),
     ` : ''}moved AS (
       INSERT INTO rm_usage_moves AS m (project_id, user_id, consumer_type, at, deltas)
       SELECT p, u, t, $6::timestamptz, d::jsonb FROM unnest($10::text[], $11::text[], $12::text[], $13::text[]) AS x(p, u, t, d)${gate}
       ON CONFLICT (project_id, user_id, consumer_type, at) DO UPDATE SET deltas = (
         SELECT jsonb_object_agg(k, s) FROM (SELECT k, SUM(v) AS s FROM (
           SELECT key AS k, value::bigint AS v FROM jsonb_each_text(m.deltas)
           UNION ALL SELECT key, value::bigint FROM jsonb_each_text(EXCLUDED.deltas)) a GROUP BY k) b))
     INSERT INTO rm_usage_hours AS h
       (project_id, user_id, consumer_type, resource_class, hour_start, net_change, change_unit_ms, peak_above_start, last_change_at)
     SELECT p, u, t, c, $5::timestamptz, n, m::numeric, k, $6::timestamptz
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $7::bigint[], $8::text[], $9::bigint[]) AS x(p, u, t, c, n, m, k)${gate}
     ON CONFLICT (project_id, user_id, consumer_type, resource_class, hour_start) DO UPDATE SET
       net_change = h.net_change + EXCLUDED.net_change,
       change_unit_ms = h.change_unit_ms + EXCLUDED.change_unit_ms,
       peak_above_start = CASE WHEN EXCLUDED.last_change_at > h.last_change_at
         THEN GREATEST(h.peak_above_start, h.net_change + EXCLUDED.net_change) END,
       last_change_at = GREATEST(h.last_change_at, EXCLUDED.last_change_at)
     RETURNING CASE WHEN peak_above_start IS NULL THEN json_build_array(project_id, user_id, consumer_type, resource_class) END AS stale`;
}
const FOLD = foldStatement(false);
const FIRST_FOLD = foldStatement(true);

/**
 * Adds the moves and folds the changes (see foldStatement); with `first`, as the consumer's
 * first claim, stored in the same statement. A writer holds its hour rows' locks until it
 * commits, so a move another writer adds to these hours is committed before this statement gets
 * the rows, and the recomputation below (later statements, later snapshots: on an append, with
 * its COMMIT) reads it. A peak left NULL marks a row to recompute; NULL never outlives this
 * transaction. Each event falls in one hour, so all of its rows share it.
 */
export async function recordChanges(
  tx: SqlClient, moves: readonly Move[], changes: readonly SeriesChange[], at: number, first?: { consumer: string; claim: Claim },
): Promise<void> {
  if (changes.length === 0) return;
  const hour = hourOf(at);
  const firsts = changes.map((c) => firstChange(hour, { at, delta: c.delta }));
  const params: unknown[] = [changes.map((c) => c.projectId), changes.map((c) => c.userId), changes.map((c) => c.consumerType),
    changes.map((c) => c.resourceClass), new Date(hour), new Date(at), firsts.map((f) => f.net), firsts.map((f) => f.unitMs.toString()),
    firsts.map((f) => f.peakAboveStart), moves.map((m) => m.projectId), moves.map((m) => m.userId), moves.map((m) => m.consumerType),
    moves.map((m) => JSON.stringify(m.deltas))];
  if (first) {
    const { claim } = first;
    params.push(first.consumer, claim.projectId, claim.userId, claim.consumerType, JSON.stringify(claim.holding));
  }
  const { rows } = await tx.query<{ stale: string[] | null }>(first ? FIRST_FOLD : FOLD, params);
  const stale = rows.flatMap((row) => (row.stale ? [row.stale] : []));
  if (stale.length > 0) await recomputePeaks(tx, hour, stale);
}

/**
 * An hour row as hour-moves.ts defines it, from the moves of the claimants each series counts
 * ('' in the series' user or type column counts them all): the peak and the last instant the
 * series moved, over the instants whose moves do not cancel out. A row with no such instant
 * left (two consumers' changes cancelling at one instant) moved nothing and goes; its sums are 0.
 */
async function recomputePeaks(tx: SqlClient, hour: number, keys: readonly string[][]): Promise<void> {
  const params = [new Date(hour), ...[0, 1, 2, 3].map((i) => keys.map((key) => key[i]))];
  await send(tx,
    `UPDATE rm_usage_hours h SET peak_above_start = r.peak, last_change_at = r.last
       FROM (SELECT k.p, k.u, k.t, k.c, GREATEST(MAX(i.level), CASE WHEN MIN(i.at) > $1::timestamptz THEN 0 END) AS peak, MAX(i.at) AS last
               FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS k(p, u, t, c)
               JOIN LATERAL (SELECT x.at, SUM(x.delta) OVER (ORDER BY x.at) AS level
                               FROM (SELECT m.at, SUM((m.deltas ->> k.c)::bigint) AS delta FROM rm_usage_moves m
                                      WHERE m.project_id = k.p AND (k.u = '' OR m.user_id = k.u) AND (k.t = '' OR m.consumer_type = k.t)
                                        AND m.deltas ? k.c AND m.at >= $1::timestamptz AND m.at < $1::timestamptz + interval '1 hour'
                                      GROUP BY m.at HAVING SUM((m.deltas ->> k.c)::bigint) <> 0) x) i ON true
              GROUP BY k.p, k.u, k.t, k.c) r
      WHERE h.project_id = r.p AND h.user_id = r.u AND h.consumer_type = r.t AND h.resource_class = r.c AND h.hour_start = $1::timestamptz`, params);
  await send(tx,
    `DELETE FROM rm_usage_hours h USING unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS k(p, u, t, c)
      WHERE h.project_id = k.p AND h.user_id = k.u AND h.consumer_type = k.t AND h.resource_class = k.c AND h.hour_start = $1::timestamptz
        AND h.peak_above_start IS NULL`, params);
}
