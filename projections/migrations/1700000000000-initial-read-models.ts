import { MigrationInterface, QueryRunner } from 'typeorm';

/** The read models of the foundation: providers with their tree, inventories, traits, aggregates, classes. */
export class InitialReadModels1700000000000 implements MigrationInterface {
  name = 'InitialReadModels1700000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_resource_providers (
        uuid text PRIMARY KEY,
        name varchar(200) NOT NULL,
        generation integer NOT NULL,
        parent_provider_uuid text NULL,
        root_provider_uuid text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT rm_resource_providers_name UNIQUE (name)
      );
      CREATE INDEX rm_resource_providers_root ON rm_resource_providers (root_provider_uuid);
      CREATE INDEX rm_resource_providers_parent ON rm_resource_providers (parent_provider_uuid);
      CREATE TABLE rm_inventories (
        provider_uuid text NOT NULL,
        resource_class text NOT NULL,
        total integer NOT NULL,
        reserved integer NOT NULL,
        min_unit integer NOT NULL,
        max_unit integer NOT NULL,
        step_size integer NOT NULL,
        allocation_ratio double precision NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (provider_uuid, resource_class)
      );
      CREATE INDEX rm_inventories_class ON rm_inventories (resource_class);
      CREATE TABLE rm_provider_traits (
        provider_uuid text NOT NULL,
        trait text NOT NULL,
        PRIMARY KEY (provider_uuid, trait)
      );
      CREATE INDEX rm_provider_traits_trait ON rm_provider_traits (trait);
      CREATE TABLE rm_provider_aggregates (
        provider_uuid text NOT NULL,
        aggregate_uuid text NOT NULL,
        PRIMARY KEY (provider_uuid, aggregate_uuid)
      );
      CREATE INDEX rm_provider_aggregates_aggregate ON rm_provider_aggregates (aggregate_uuid);
      CREATE TABLE rm_resource_classes (
        name text PRIMARY KEY,
        id integer NOT NULL UNIQUE,
        custom boolean NOT NULL,
        created_at timestamptz NULL,
        updated_at timestamptz NULL
      );
      CREATE SEQUENCE rm_custom_resource_class_ids START 10000;
      CREATE TABLE rm_traits (
        name text PRIMARY KEY,
        custom boolean NOT NULL,
        created_at timestamptz NULL,
        updated_at timestamptz NULL
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rm_traits, rm_resource_classes, rm_provider_aggregates, rm_provider_traits,
      rm_inventories, rm_resource_providers; DROP SEQUENCE rm_custom_resource_class_ids;`);
  }
}
