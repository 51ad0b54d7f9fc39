import { send, type AppendedEvent, type SqlClient } from '#event-store/index.js';
import type { Inventories } from '#domain/index.js';
import { Projection } from '../runner/projection.js';
import { factTime } from '../runner/fact-time.js';
import { replayProviderEvent } from './providers.memory.js';

const uuidOf = (event: AppendedEvent) => event.stream.slice('provider-'.length);

/** rm_resource_providers and its child tables, from the provider streams. */
export const providersProjection: Projection = {
  name: 'providers',
  handles: ['ResourceProviderCreated', 'ResourceProviderUpdated', 'ResourceProviderDeleted', 'InventoriesSet', 'TraitsSet', 'AggregatesSet'],
  twin: { memory: 'core', apply: replayProviderEvent },
  async apply(tx: SqlClient, event: AppendedEvent<any>) {
    const uuid = uuidOf(event);
    const at = factTime(event);
    switch (event.type) {
      case 'ResourceProviderCreated': {
        const parent = event.data.parent_provider_uuid as string | null;
        await send(tx,
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
        await send(tx, 'DELETE FROM rm_inventories WHERE provider_uuid = $1', [uuid]);
        await send(tx, 'DELETE FROM rm_provider_traits WHERE provider_uuid = $1', [uuid]);
        await send(tx, 'DELETE FROM rm_provider_aggregates WHERE provider_uuid = $1', [uuid]);
        await send(tx, 'DELETE FROM rm_resource_providers WHERE uuid = $1', [uuid]);
        return;
      case 'InventoriesSet':
        return replaceInventories(tx, uuid, event.data.generation, event.data.inventories, at);
      case 'TraitsSet':
        return replaceMembers(tx, 'rm_provider_traits', 'trait', uuid, event.data.generation, event.data.traits, at);
      case 'AggregatesSet':
        return replaceMembers(tx, 'rm_provider_aggregates', 'aggregate_uuid', uuid, event.data.generation, event.data.aggregates, at);
    }
  },
};

/**
 * Moves the provider's generation in the same statement as the rows that changed with it (one
 * round trip per event: on a loaded machine the round trips, not the rows, are the cost).
 * Upstream's updated_at moves with its row's UPDATE: an unchanged generation (aggregates before 1.19)
 * leaves it. Generations only grow: one append's events reach this table through two projections
 * (inventories here, claims in the allocations projection), applied one projection after the other.
 */
const TOUCH = 'touched AS (UPDATE rm_resource_providers SET generation = $2, updated_at = $3 WHERE uuid = $1 AND generation < $2)';

/** A provider's traits or aggregates become `members`: those gone are deleted, only the new ones inserted. */
async function replaceMembers(
  tx: SqlClient, table: 'rm_provider_traits' | 'rm_provider_aggregates', column: 'trait' | 'aggregate_uuid',
  uuid: string, generation: number, members: readonly string[], at: Date,
) {
  await send(tx,
    `WITH ${TOUCH},
       removed AS (DELETE FROM ${table} WHERE provider_uuid = $1 AND NOT (${column} = ANY($4::text[])))
     INSERT INTO ${table} (provider_uuid, ${column}) SELECT $1::text, unnest($4::text[]) ON CONFLICT DO NOTHING`,
    [uuid, generation, at, members]);
}

/** A new parent moves the whole subtree under the parent's root, as upstream. */
async function updateProvider(tx: SqlClient, uuid: string, name: string, parent: string | null, generation: number, at: Date) {
  const { rows } = await tx.query<{ parent_provider_uuid: string | null; root_provider_uuid: string }>(
    'SELECT parent_provider_uuid, root_provider_uuid FROM rm_resource_providers WHERE uuid = $1', [uuid]);
  await send(tx, 'UPDATE rm_resource_providers SET name = $2, parent_provider_uuid = $3, generation = $4, updated_at = $5 WHERE uuid = $1',
    [uuid, name, parent, generation, at]);
  if (rows.length === 0 || rows[0].parent_provider_uuid === parent) return;
  await send(tx,
    `WITH RECURSIVE subtree(uuid) AS (
       SELECT $1::text UNION ALL
       SELECT p.uuid FROM rm_resource_providers p JOIN subtree s ON p.parent_provider_uuid = s.uuid)
     UPDATE rm_resource_providers SET root_provider_uuid =
       COALESCE((SELECT root_provider_uuid FROM rm_resource_providers WHERE uuid = $2::text), $1)
     WHERE uuid IN (SELECT uuid FROM subtree)`,
    [uuid, parent],
  );
}

async function replaceInventories(tx: SqlClient, uuid: string, generation: number, inventories: Inventories, at: Date) {
  const classes = Object.keys(inventories);
  const column = (field: keyof Inventories[string]) => classes.map((rc) => inventories[rc][field]);
  // The classes dropped and the ones kept are disjoint, so the DELETE and the upsert never meet a row twice.
  await send(tx,
    `WITH ${TOUCH},
       removed AS (DELETE FROM rm_inventories WHERE provider_uuid = $1 AND NOT (resource_class = ANY($4::text[])))
     INSERT INTO rm_inventories (provider_uuid, resource_class, total, reserved, min_unit, max_unit, step_size, allocation_ratio, created_at, updated_at)
     SELECT $1::text, *, $3::timestamptz, $3::timestamptz FROM unnest($4::text[], $5::int[], $6::int[], $7::int[], $8::int[], $9::int[], $10::float8[])
     ON CONFLICT (provider_uuid, resource_class) DO UPDATE SET total = EXCLUDED.total, reserved = EXCLUDED.reserved,
       min_unit = EXCLUDED.min_unit, max_unit = EXCLUDED.max_unit, step_size = EXCLUDED.step_size,
       allocation_ratio = EXCLUDED.allocation_ratio, updated_at = EXCLUDED.updated_at`,
    [uuid, generation, at, classes, column('total'), column('reserved'), column('min_unit'), column('max_unit'), column('step_size'),
      column('allocation_ratio')],
  );
}
