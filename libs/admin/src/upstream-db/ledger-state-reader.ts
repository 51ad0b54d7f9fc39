import type { Pool } from 'pg';
import { UpstreamConsumer, UpstreamState } from '#domain/index.js';
import { MutableProvider } from './snapshot-reader.js';
import { later } from './sql-time.js';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/**
 * What this service serves, read from its read models in the shape of an upstream snapshot,
 * so that import --verify and export compare and write the two with one vocabulary.
 */
export async function readLedgerState(pool: Pool): Promise<UpstreamState> {
  // One snapshot: a server still writing cannot give the comparison or the export half a claim.
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    return await readRows(async <Row>(sql: string) => (await client.query(sql)).rows as Row[]);
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

async function readRows(q: <Row>(sql: string) => Promise<Row[]>): Promise<UpstreamState> {
  const classes = await q<{ name: string; created_at: Date; updated_at: Date | null }>(
    'SELECT name, created_at, updated_at FROM rm_resource_classes WHERE custom ORDER BY id');
  const traits = await q<{ name: string; created_at: Date; updated_at: Date | null }>(
    'SELECT name, created_at, updated_at FROM rm_traits WHERE custom ORDER BY name');
  const providers = new Map<string, MutableProvider>();
  for (const row of await q<{ uuid: string; name: string; generation: number; parent_provider_uuid: string | null; updated_at: Date }>(
    'SELECT uuid, name, generation, parent_provider_uuid, updated_at FROM rm_resource_providers ORDER BY created_at, uuid')) {
    providers.set(row.uuid, {
      uuid: row.uuid, name: row.name, generation: row.generation, parentUuid: row.parent_provider_uuid,
      modifiedAt: row.updated_at.toISOString(), inventories: {}, inventoriesModifiedAt: null, traits: [], aggregates: [],
    });
  }
  for (const row of await q<{ provider_uuid: string; resource_class: string; total: number; reserved: number; min_unit: number;
    max_unit: number; step_size: number; allocation_ratio: number; updated_at: Date }>('SELECT * FROM rm_inventories ORDER BY resource_class')) {
    const provider = providers.get(row.provider_uuid);
    if (!provider) continue;
    const { total, reserved, min_unit, max_unit, step_size, allocation_ratio } = row;
    provider.inventories[row.resource_class] = { total, reserved, min_unit, max_unit, step_size, allocation_ratio };
    provider.inventoriesModifiedAt = later(provider.inventoriesModifiedAt, iso(row.updated_at));
  }
  for (const row of await q<{ provider_uuid: string; trait: string }>('SELECT provider_uuid, trait FROM rm_provider_traits ORDER BY trait')) {
    providers.get(row.provider_uuid)?.traits.push(row.trait);
  }
  for (const row of await q<{ provider_uuid: string; aggregate_uuid: string }>(
    'SELECT provider_uuid, aggregate_uuid FROM rm_provider_aggregates ORDER BY aggregate_uuid')) {
    providers.get(row.provider_uuid)?.aggregates.push(row.aggregate_uuid);
  }
  const consumers = new Map<string, UpstreamConsumer & { allocations: Record<string, Record<string, number>> }>();
  for (const row of await q<{ uuid: string; project_id: string; user_id: string; consumer_type: string | null; generation: number; updated_at: Date }>(
    'SELECT uuid, project_id, user_id, consumer_type, generation, updated_at FROM rm_consumers ORDER BY created_at, uuid')) {
    consumers.set(row.uuid, {
      uuid: row.uuid, projectId: row.project_id, userId: row.user_id, consumerType: row.consumer_type, generation: row.generation,
      allocations: {}, modifiedAt: row.updated_at.toISOString(),
    });
  }
  const allocated = new Map<string, string | null>();
  for (const row of await q<{ consumer_uuid: string; provider_uuid: string; resource_class: string; used: number; created_at: Date }>(
    'SELECT consumer_uuid, provider_uuid, resource_class, used, created_at FROM rm_allocations ORDER BY consumer_uuid, position')) {
    const consumer = consumers.get(row.consumer_uuid);
    if (!consumer) continue;
    (consumer.allocations[row.provider_uuid] ??= {})[row.resource_class] = row.used;
    allocated.set(row.consumer_uuid, later(allocated.get(row.consumer_uuid) ?? null, iso(row.created_at)));
  }
  return {
    revision: 'placement-ledger',
    resourceClasses: classes.map((rc) => ({ name: rc.name, modifiedAt: (rc.updated_at ?? rc.created_at).toISOString() })),
    traits: traits.map((trait) => ({ name: trait.name, modifiedAt: (trait.updated_at ?? trait.created_at).toISOString() })),
    providers: [...providers.values()],
    consumers: [...consumers.values()].map((c) => ({ ...c, modifiedAt: allocated.get(c.uuid) ?? c.modifiedAt })),
  };
}
