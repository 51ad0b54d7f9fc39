import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Provider names are unique by the log's own name streams (libs/domain/src/provider-name), which
 * a creation or rename writes in the same atomic append. A projection must apply every event
 * the log committed: a unique key here could only refuse one, stalling an asynchronous
 * projector or failing an inline append with a 500, and never tell a client anything the name
 * stream had not. So the key goes; a plain index keeps `GET /resource_providers?name=` fast.
 */
export class ProviderNameNotUnique1700000000040 implements MigrationInterface {
  name = 'ProviderNameNotUnique1700000000040';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rm_resource_providers DROP CONSTRAINT rm_resource_providers_name');
    await q.query('CREATE INDEX rm_resource_providers_name ON rm_resource_providers (name)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX rm_resource_providers_name');
    await q.query('ALTER TABLE rm_resource_providers ADD CONSTRAINT rm_resource_providers_name UNIQUE (name)');
  }
}
