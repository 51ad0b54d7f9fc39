import type { RecordedEvent, SqlClient } from '#event-store/index.js';
import type { Inventories } from '#domain/index.js';
import { Projection } from '../runner/projection.js';
import { factTime } from '../runner/fact-time.js';

const uuidOf = (event: RecordedEvent) => event.stream.slice('provider-'.length);

/** rm_resource_providers and its child tables, from the provider streams. */
export const providersProjection: Projection = {
  name: 'providers',
  handles: ['ResourceProviderCreated', 'ResourceProviderUpdated', 'ResourceProviderDeleted', 'InventoriesSet', 'TraitsSet', 'AggregatesSet'],
  async apply(tx: SqlClient, event: RecordedEvent<any>) {
    const uuid = uuidOf(event);
    const at = factTime(event);
    switch (event.type) {
      case 'ResourceProviderCreated': {
        const parent = event.data.parent_provider_uuid as string | null;
        await tx.query(
          `INSERT INTO rm_resource_providers (uuid, name, generation, parent_provider_uuid, root_provider_uuid, created_at, updated_at)
           VALUES ($1, $2, $3, $4::text, COALESCE((SELECT root_provider_uuid FROM rm_resource_providers WHERE uuid = $4::text), $1), $5, $5)
           ON CONFLICT (uuid) DO NOTHING`,
          [uuid, event.data.name, event.data.generation, parent, at],
        );
        return;
      }
      case 'ResourceProviderUpdated':
        return updateProvider(tx, uuid, event.data.name, event.data.parent_provider_uuid, event.data.generation, at);
      case 'ResourceProviderDeleted':
        await tx.query('DELETE FROM rm_inventories WHERE provider_uuid = $1', [uuid]);
        await tx.query('DELETE FROM rm_provider_traits WHERE provider_uuid = $1', [uuid]);
        await tx.query('DELETE FROM rm_provider_aggregates WHERE provider_uuid = $1', [uuid]);
        await tx.query('DELETE FROM rm_resource_providers WHERE uuid = $1', [uuid]);
        return;
      case 'InventoriesSet':
        await touch(tx, uuid, event.data.generation, at);
        return replaceInventories(tx, uuid, event.data.inventories, at);
      case 'TraitsSet':
        await touch(tx, uuid, event.data.generation, at);
        await tx.query('DELETE FROM rm_provider_traits WHERE provider_uuid = $1', [uuid]);
        await tx.query('INSERT INTO rm_provider_traits (provider_uuid, trait) SELECT $1::text, unnest($2::text[])', [uuid, event.data.traits]);
        return;
      case 'AggregatesSet':
        await touch(tx, uuid, event.data.generation, at);
        await tx.query('DELETE FROM rm_provider_aggregates WHERE provider_uuid = $1', [uuid]);
        await tx.query('INSERT INTO rm_provider_aggregates (provider_uuid, aggregate_uuid) SELECT $1::text, unnest($2::text[])', [uuid, event.data.aggregates]);
        return;
    }
  },
};

/**
 * Upstream's updated_at moves with its row's UPDATE: an unchanged generation (aggregates before 1.19)
 * leaves it. Generations only grow: one append's events reach this table through two projections
 * (inventories here, claims in the allocations projection), applied one projection after the other.
 */
async function touch(tx: SqlClient, uuid: string, generation: number, at: Date) {
  await tx.query(
    'UPDATE rm_resource_providers SET generation = $2, updated_at = $3 WHERE uuid = $1 AND generation < $2',
    [uuid, generation, at]);
}

/** A new parent moves the whole subtree under the parent's root, as upstream. */
async function updateProvider(tx: SqlClient, uuid: string, name: string, parent: string | null, generation: number, at: Date) {
  const { rows } = await tx.query<{ parent_provider_uuid: string | null; root_provider_uuid: string }>(
    'SELECT parent_provider_uuid, root_provider_uuid FROM rm_resource_providers WHERE uuid = $1', [uuid]);
  await tx.query('UPDATE rm_resource_providers SET name = $2, parent_provider_uuid = $3, generation = $4, updated_at = $5 WHERE uuid = $1',
    [uuid, name, parent, generation, at]);
  if (rows.length === 0 || rows[0].parent_provider_uuid === parent) return;
  await tx.query(
    `WITH RECURSIVE subtree(uuid) AS (
       SELECT $1::text UNION ALL
       SELECT p.uuid FROM rm_resource_providers p JOIN subtree s ON p.parent_provider_uuid = s.uuid)
     UPDATE rm_resource_providers SET root_provider_uuid =
       COALESCE((SELECT root_provider_uuid FROM rm_resource_providers WHERE uuid = $2::text), $1)
     WHERE uuid IN (SELECT uuid FROM subtree)`,
    [uuid, parent],
  );
}

async function replaceInventories(tx: SqlClient, uuid: string, inventories: Inventories, at: Date) {
  const classes = Object.keys(inventories);
  await tx.query('DELETE FROM rm_inventories WHERE provider_uuid = $1 AND NOT (resource_class = ANY($2::text[]))', [uuid, classes]);
  if (classes.length === 0) return;
  const column = (field: keyof Inventories[string]) => classes.map((rc) => inventories[rc][field]);
  await tx.query(
    `INSERT INTO rm_inventories (provider_uuid, resource_class, total, reserved, min_unit, max_unit, step_size, allocation_ratio, created_at, updated_at)
     SELECT $1::text, * , $9::timestamptz, $9::timestamptz FROM unnest($2::text[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::float8[])
     ON CONFLICT (provider_uuid, resource_class) DO UPDATE SET total = EXCLUDED.total, reserved = EXCLUDED.reserved,
       min_unit = EXCLUDED.min_unit, max_unit = EXCLUDED.max_unit, step_size = EXCLUDED.step_size,
       allocation_ratio = EXCLUDED.allocation_ratio, updated_at = EXCLUDED.updated_at`,
    [uuid, classes, column('total'), column('reserved'), column('min_unit'), column('max_unit'), column('step_size'), column('allocation_ratio'), at],
  );
}
