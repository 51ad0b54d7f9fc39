import { MigrationInterface, QueryRunner } from 'typeorm';
import { UsageFoldSameInstant1700000000051, widened } from './1700000000051-usage-fold-same-instant.js';

/**
 * rm_usage_fold folding any change at the instant of the hour's latest change without
 * recomputing the hour, when that instant still moves the series afterwards. A batch's appends
 * share their instant, so deleting many instances of one project recomputed each hour's peaks
 * from every move of the project in the hour, once per delete: PostgreSQL's work per delete
 * grew with the hour's boots (docs/performance.md).
 *
 * Each hour row now keeps the series' net at its latest instant (last_change_net), under the
 * row's lock like the rest of it. A change at that instant that leaves it moving is exact: if
 * the level before it was below the hour's peak, the peak was reached at another instant (or is
 * the start's 0) and stays, unless the new level passes it; if the level was the peak, a rise
 * sets the new peak (1700000000051's case). A fall from the peak, a change that cancels the
 * instant out (the latest change is then an earlier one), a late change, and a row whose
 * latest net is unknown are recomputed from the moves as before, which also sets last_change_net.
 */
const REPLACEMENTS: readonly (readonly [string, string])[] = [
  [`(project_id, user_id, consumer_type, resource_class, hour_start, net_change, change_unit_ms, peak_above_start, last_change_at)
    SELECT x.p, x.u, x.t, x.c, _hour, x.n, x.m::numeric, x.k, _at`,
  `(project_id, user_id, consumer_type, resource_class, hour_start, net_change, change_unit_ms, peak_above_start, last_change_at, last_change_net)
    SELECT x.p, x.u, x.t, x.c, _hour, x.n, x.m::numeric, x.k, _at, x.n`],
  [`peak_above_start = CASE WHEN EXCLUDED.last_change_at > h.last_change_at
          OR (EXCLUDED.last_change_at = h.last_change_at AND EXCLUDED.net_change > 0
            AND h.peak_above_start = h.net_change AND h.net_change + EXCLUDED.net_change <> 0)
        THEN GREATEST(h.peak_above_start, h.net_change + EXCLUDED.net_change) END,`,
  `peak_above_start = CASE WHEN EXCLUDED.last_change_at > h.last_change_at
          OR (EXCLUDED.last_change_at = h.last_change_at AND h.last_change_net + EXCLUDED.net_change <> 0
            AND (EXCLUDED.net_change > 0 OR h.peak_above_start > h.net_change))
        THEN GREATEST(h.peak_above_start, h.net_change + EXCLUDED.net_change) END,
      last_change_net = CASE WHEN EXCLUDED.last_change_at > h.last_change_at THEN EXCLUDED.net_change
        WHEN EXCLUDED.last_change_at = h.last_change_at THEN h.last_change_net + EXCLUDED.net_change
        ELSE h.last_change_net END,`],
  [`UPDATE rm_usage_hours h SET peak_above_start = r.peak, last_change_at = r.last
    FROM (SELECT k.p, k.u, k.t, k.c, GREATEST(MAX(i.level), CASE WHEN MIN(i.at) > _hour THEN 0 END) AS peak, MAX(i.at) AS last
            FROM unnest(sp, su, st, sc) AS k(p, u, t, c)
            JOIN LATERAL (SELECT x.at, SUM(x.delta) OVER (ORDER BY x.at) AS level`,
  `UPDATE rm_usage_hours h SET peak_above_start = r.peak, last_change_at = r.last, last_change_net = r.last_net
    FROM (SELECT k.p, k.u, k.t, k.c, GREATEST(MAX(i.level), CASE WHEN MIN(i.at) > _hour THEN 0 END) AS peak, MAX(i.at) AS last,
                 (array_agg(i.delta ORDER BY i.at DESC))[1] AS last_net
            FROM unnest(sp, su, st, sc) AS k(p, u, t, c)
            JOIN LATERAL (SELECT x.at, x.delta, SUM(x.delta) OVER (ORDER BY x.at) AS level`],
];

function latestInstant(): string {
  return REPLACEMENTS.reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error('rm_usage_fold of 1700000000051 no longer holds a part this migration changes');
    return text.replace(from, to);
  }, widened());
}

/** Each row's net at its latest instant, from the moves at that instant of the claimants its series counts. */
const BACKFILL = `
UPDATE rm_usage_hours h SET last_change_net = s.net
  FROM (SELECT r.project_id, r.user_id, r.consumer_type, r.resource_class, r.hour_start, SUM((m.deltas ->> r.resource_class)::bigint) AS net
          FROM rm_usage_hours r JOIN rm_usage_moves m ON m.project_id = r.project_id AND m.at = r.last_change_at
         WHERE (r.user_id = '' OR m.user_id = r.user_id) AND (r.consumer_type = '' OR m.consumer_type = r.consumer_type)
           AND m.deltas ? r.resource_class
         GROUP BY r.project_id, r.user_id, r.consumer_type, r.resource_class, r.hour_start) s
 WHERE h.project_id = s.project_id AND h.user_id = s.user_id AND h.consumer_type = s.consumer_type
   AND h.resource_class = s.resource_class AND h.hour_start = s.hour_start`;

export class UsageFoldLatestInstant1700000000052 implements MigrationInterface {
  name = 'UsageFoldLatestInstant1700000000052';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rm_usage_hours ADD COLUMN last_change_net bigint');
    await q.query(BACKFILL);
    await q.query(latestInstant());
  }

  async down(q: QueryRunner): Promise<void> {
    // The function as 1700000000051 made it, which knows nothing of the column.
    await new UsageFoldSameInstant1700000000051().up(q);
    await q.query('ALTER TABLE rm_usage_hours DROP COLUMN last_change_net');
  }
}
