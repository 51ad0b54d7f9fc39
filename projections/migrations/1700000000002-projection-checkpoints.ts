import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How far each projection has read the log, written in the same transaction as its rows; and
 * what the last rebuild did, so `placement-admin status` can tell both.
 */
export class ProjectionCheckpoints1700000000002 implements MigrationInterface {
  name = 'ProjectionCheckpoints1700000000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_projection_checkpoints (
        projection text PRIMARY KEY,
        commit_xid xid8 NOT NULL DEFAULT '0',
        position bigint NOT NULL DEFAULT 0,
        updated_at timestamptz NULL,
        rebuilt_at timestamptz NULL,
        rebuilt_events bigint NULL,
        rebuild_seconds double precision NULL
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_projection_checkpoints');
  }
}
