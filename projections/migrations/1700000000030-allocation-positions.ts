import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * rm_allocations.position: where each row stands in its consumer's last write, so a consumer's
 * allocations are listed in the order they were written, as upstream lists them. Rows already
 * there are numbered as their events' fallback order (orderedLines: providers by uuid, classes by
 * name, by code point), so verify finds a replay of the log equal to them.
 */
export class AllocationPositions1700000000030 implements MigrationInterface {
  name = 'AllocationPositions1700000000030';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rm_allocations ADD COLUMN position integer NOT NULL DEFAULT 0');
    await q.query(`
      UPDATE rm_allocations a SET position = n.position
        FROM (SELECT consumer_uuid, provider_uuid, resource_class,
                     row_number() OVER (PARTITION BY consumer_uuid
                                        ORDER BY provider_uuid COLLATE "C", resource_class COLLATE "C") - 1 AS position
                FROM rm_allocations) n
       WHERE a.consumer_uuid = n.consumer_uuid AND a.provider_uuid = n.provider_uuid AND a.resource_class = n.resource_class`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rm_allocations DROP COLUMN position');
  }
}
