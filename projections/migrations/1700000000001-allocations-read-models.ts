import { MigrationInterface, QueryRunner } from 'typeorm';

/** Consumers and what they hold: the read side of claims (usages, provider allocations, capacity filters). */
export class AllocationsReadModels1700000000001 implements MigrationInterface {
  name = 'AllocationsReadModels1700000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_consumers (
        uuid text PRIMARY KEY,
        project_id text NOT NULL,
        user_id text NOT NULL,
        consumer_type text NULL,
        generation integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX rm_consumers_project_user ON rm_consumers (project_id, user_id);
      CREATE TABLE rm_allocations (
        consumer_uuid text NOT NULL,
        provider_uuid text NOT NULL,
        resource_class text NOT NULL,
        used integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (consumer_uuid, provider_uuid, resource_class)
      );
      CREATE INDEX rm_allocations_provider ON rm_allocations (provider_uuid, resource_class);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_allocations, rm_consumers');
  }
}
