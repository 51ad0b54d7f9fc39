import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An hour's peak is recomputed from the moments its level moved, but storing every moment of
 * every series (four scopes times each class) made ~5 rows per event, most of a rebuild's
 * writing. A claimant's move at a moment, with its change per class, is the same fact once:
 * each series' changes are the sums of the moves of the claimants it counts.
 */
export class UsageMoves1700000000021 implements MigrationInterface {
  name = 'UsageMoves1700000000021';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_usage_moves (
        project_id text NOT NULL,
        user_id text NOT NULL,
        -- As the series name it: 'unknown' for a consumer without a type.
        consumer_type text NOT NULL,
        at timestamptz NOT NULL,
        -- Resource class -> units gained (negative: released) by this claimant at this moment.
        deltas jsonb NOT NULL,
        PRIMARY KEY (project_id, user_id, consumer_type, at)
      );
      -- The series of one user and one type are exactly one claimant's moves.
      INSERT INTO rm_usage_moves (project_id, user_id, consumer_type, at, deltas)
      SELECT project_id, user_id, consumer_type, at, jsonb_object_agg(resource_class, delta)
        FROM rm_usage_changes WHERE user_id <> '' AND consumer_type <> ''
       GROUP BY project_id, user_id, consumer_type, at;
      DROP TABLE rm_usage_changes;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_usage_changes (
        project_id text NOT NULL,
        user_id text NOT NULL,
        consumer_type text NOT NULL,
        resource_class text NOT NULL,
        at timestamptz NOT NULL,
        delta bigint NOT NULL,
        PRIMARY KEY (project_id, user_id, consumer_type, resource_class, at)
      );
      INSERT INTO rm_usage_changes (project_id, user_id, consumer_type, resource_class, at, delta)
      SELECT m.project_id, s.user_id, s.consumer_type, d.key, m.at, SUM(d.value::bigint)
        FROM rm_usage_moves m, jsonb_each_text(m.deltas) d,
             LATERAL (VALUES ('', ''), (m.user_id, ''), ('', m.consumer_type), (m.user_id, m.consumer_type)) AS s(user_id, consumer_type)
       GROUP BY m.project_id, s.user_id, s.consumer_type, d.key, m.at
      HAVING SUM(d.value::bigint) <> 0;
      DROP TABLE rm_usage_moves;
    `);
  }
}
