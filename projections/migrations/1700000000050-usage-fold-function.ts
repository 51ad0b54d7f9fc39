import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The usage projection's fold as one function call, so an append sends it with its COMMIT
 * instead of waiting for its answer in a round trip of its own (usage-over-time.projection.ts).
 * What the projection decided in between, whether an hour's peak must be recomputed, is
 * decided here: a peak left NULL by the fold is recomputed by the statements after it. Each
 * statement of a volatile function takes a new snapshot, as the separate statements did, so the
 * recomputation still reads every move another writer committed to these hours first.
 *
 * Arguments: the series' changes (project, user, type, class; net, unit-ms and peak of the
 * change as the hour's first), the hour and the instant; the claimants' moves (project, user,
 * type, deltas as JSON); and for a consumer's first claim, the consumer and what it holds: the
 * fold then runs only if this call stored the consumer (a replay finds it stored).
 */
/** Exported for 1700000000051, which changes one condition of it. */
export const USAGE_FOLD = `
CREATE OR REPLACE FUNCTION rm_usage_fold(
  _p text[], _u text[], _t text[], _c text[], _hour timestamptz, _at timestamptz, _nets bigint[], _units text[], _peaks bigint[],
  _mp text[], _mu text[], _mt text[], _md text[],
  _consumer text, _project text, _user text, _type text, _holding jsonb)
RETURNS void LANGUAGE plpgsql AS $fold$
DECLARE
  sp text[]; su text[]; st text[]; sc text[];
BEGIN
  IF _consumer IS NOT NULL THEN
    INSERT INTO rm_usage_consumers (consumer_uuid, revision, project_id, user_id, consumer_type, holding)
    VALUES (_consumer, 0, _project, _user, _type, _holding) ON CONFLICT (consumer_uuid) DO NOTHING;
    IF NOT FOUND THEN RETURN; END IF;
  END IF;
  WITH moved AS (
    INSERT INTO rm_usage_moves AS m (project_id, user_id, consumer_type, at, deltas)
    SELECT x.p, x.u, x.t, _at, x.d::jsonb FROM unnest(_mp, _mu, _mt, _md) AS x(p, u, t, d)
    ON CONFLICT (project_id, user_id, consumer_type, at) DO UPDATE SET deltas = (
      SELECT jsonb_object_agg(k, s) FROM (SELECT k, SUM(v) AS s FROM (
        SELECT key AS k, value::bigint AS v FROM jsonb_each_text(m.deltas)
        UNION ALL SELECT key, value::bigint FROM jsonb_each_text(EXCLUDED.deltas)) a GROUP BY k) b)),
  folded AS (
    INSERT INTO rm_usage_hours AS h
      (project_id, user_id, consumer_type, resource_class, hour_start, net_change, change_unit_ms, peak_above_start, last_change_at)
    SELECT x.p, x.u, x.t, x.c, _hour, x.n, x.m::numeric, x.k, _at
      FROM unnest(_p, _u, _t, _c, _nets, _units, _peaks) AS x(p, u, t, c, n, m, k)
    ON CONFLICT (project_id, user_id, consumer_type, resource_class, hour_start) DO UPDATE SET
      net_change = h.net_change + EXCLUDED.net_change,
      change_unit_ms = h.change_unit_ms + EXCLUDED.change_unit_ms,
      peak_above_start = CASE WHEN EXCLUDED.last_change_at > h.last_change_at
        THEN GREATEST(h.peak_above_start, h.net_change + EXCLUDED.net_change) END,
      last_change_at = GREATEST(h.last_change_at, EXCLUDED.last_change_at)
    RETURNING h.project_id, h.user_id, h.consumer_type, h.resource_class, h.peak_above_start)
  SELECT array_agg(f.project_id), array_agg(f.user_id), array_agg(f.consumer_type), array_agg(f.resource_class)
    INTO sp, su, st, sc FROM folded f WHERE f.peak_above_start IS NULL;
  IF sp IS NULL THEN RETURN; END IF;
  -- A late change: each marked row again from the moves of the claimants its series counts ('' in
  -- the user or type column counts them all), over the instants whose moves do not cancel out.
  UPDATE rm_usage_hours h SET peak_above_start = r.peak, last_change_at = r.last
    FROM (SELECT k.p, k.u, k.t, k.c, GREATEST(MAX(i.level), CASE WHEN MIN(i.at) > _hour THEN 0 END) AS peak, MAX(i.at) AS last
            FROM unnest(sp, su, st, sc) AS k(p, u, t, c)
            JOIN LATERAL (SELECT x.at, SUM(x.delta) OVER (ORDER BY x.at) AS level
                            FROM (SELECT m.at, SUM((m.deltas ->> k.c)::bigint) AS delta FROM rm_usage_moves m
                                   WHERE m.project_id = k.p AND (k.u = '' OR m.user_id = k.u) AND (k.t = '' OR m.consumer_type = k.t)
                                     AND m.deltas ? k.c AND m.at >= _hour AND m.at < _hour + interval '1 hour'
                                   GROUP BY m.at HAVING SUM((m.deltas ->> k.c)::bigint) <> 0) x) i ON true
           GROUP BY k.p, k.u, k.t, k.c) r
   WHERE h.project_id = r.p AND h.user_id = r.u AND h.consumer_type = r.t AND h.resource_class = r.c AND h.hour_start = _hour;
  -- A row with no such instant left moved nothing and goes; its sums are 0.
  DELETE FROM rm_usage_hours h USING unnest(sp, su, st, sc) AS k(p, u, t, c)
   WHERE h.project_id = k.p AND h.user_id = k.u AND h.consumer_type = k.t AND h.resource_class = k.c AND h.hour_start = _hour
     AND h.peak_above_start IS NULL;
END
$fold$`;

export class UsageFoldFunction1700000000050 implements MigrationInterface {
  name = 'UsageFoldFunction1700000000050';

  async up(q: QueryRunner): Promise<void> {
    await q.query(USAGE_FOLD);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION rm_usage_fold');
  }
}
