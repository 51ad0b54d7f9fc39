import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Usage over time (projections/usage-over-time). A series is a project's units of one class,
 * optionally narrowed to one user and/or one consumer type; '' in user_id or consumer_type
 * means "every", 'unknown' is a consumer without a type.
 */
export class UsageOverTime1700000000020 implements MigrationInterface {
  name = 'UsageOverTime1700000000020';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_usage_consumers (
        consumer_uuid text PRIMARY KEY,
        -- The consumer stream's last revision applied: older events are skipped (idempotent replay).
        revision bigint NOT NULL,
        project_id text NOT NULL,
        user_id text NOT NULL,
        consumer_type text NULL,
        -- Resource class -> units over all providers; {} once removed (kept for the revision).
        holding jsonb NOT NULL
      );
      -- Each moment a series' level moved; read only to recompute an hour's peak.
      CREATE TABLE rm_usage_changes (
        project_id text NOT NULL,
        user_id text NOT NULL,
        consumer_type text NOT NULL,
        resource_class text NOT NULL,
        at timestamptz NOT NULL,
        delta bigint NOT NULL,
        PRIMARY KEY (project_id, user_id, consumer_type, resource_class, at)
      );
      -- One row per series and UTC hour in which its level moved (hour-summary.ts).
      CREATE TABLE rm_usage_hours (
        project_id text NOT NULL,
        user_id text NOT NULL,
        consumer_type text NOT NULL,
        resource_class text NOT NULL,
        hour_start timestamptz NOT NULL,
        net_change bigint NOT NULL,
        change_unit_ms numeric NOT NULL,
        -- NULL only inside the transaction that is recomputing it.
        peak_above_start bigint NULL,
        last_change_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, user_id, consumer_type, resource_class, hour_start)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_usage_hours, rm_usage_changes, rm_usage_consumers');
  }
}
