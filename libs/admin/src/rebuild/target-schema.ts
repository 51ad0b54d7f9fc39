import type { Pool } from 'pg';
import { inTransaction } from '#event-store/index.js';
import type { Projection } from '#projections/runner/projection.js';
import { seedProjectionCheckpoints } from '#projections/runner/checkpoints.js';
import { seedStandardNames } from '#placement/persistence/standard-names.seed.js';
import { CACHE_TABLES } from '#placement/ledger/snapshots/snapshot-store.js';
import { MemoryPlan, planMemoryReplay } from './memory/memory-replays.js';
import { createMigratedSchema, dropSchema, qualified, quoteIdent, TableShape } from './schema/schema-admin.js';

/**
 * A fresh schema with the migrations' tables and the built-in names, as a server start leaves
 * it. A standard trait keeps the created_at of the live row: no event says when it was seeded.
 */
export async function prepareTargetSchema(pool: Pool, url: string, schema: string, live: string, projections: readonly Projection[]): Promise<void> {
  await dropSchema(pool, schema);
  await createMigratedSchema(pool, url, schema);
  await inTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO ${qualified(schema, 'rm_traits')} (name, custom, created_at, updated_at)
       SELECT name, custom, created_at, updated_at FROM ${qualified(live, 'rm_traits')} WHERE NOT custom`);
    await client.query(`SET LOCAL search_path = ${quoteIdent(schema)}, public`);
    await seedStandardNames(client);
    await seedProjectionCheckpoints(client, projections);
  });
}

/**
 * Memory replay also needs every table of the schema to be one the in-memory model fills, with
 * the same columns: a table or column added to a projection but not to its twin would
 * otherwise come out empty.
 */
export function planReplay(projections: readonly Projection[], shapes: readonly TableShape[], forceSql: boolean): MemoryPlan {
  if (forceSql) return { kind: 'sql', reason: 'SQL replay asked for' };
  const plan = planMemoryReplay(projections);
  if (plan.kind === 'sql') return plan;
  const kept = new Map(plan.create().tables().map((t) => [t.table, new Set(t.columns)]));
  for (const shape of shapes) {
    if (CACHE_TABLES.includes(shape.table)) continue;
    const columns = kept.get(shape.table);
    if (!columns) return { kind: 'sql', reason: `table ${shape.table} is not kept by the in-memory replay` };
    const unknown = [...shape.types.keys()].find((column) => !columns.has(column));
    if (unknown) return { kind: 'sql', reason: `column ${shape.table}.${unknown} is not kept by the in-memory replay` };
  }
  return plan;
}
