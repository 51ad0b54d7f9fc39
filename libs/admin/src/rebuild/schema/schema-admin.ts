import type { SqlClient } from '#event-store/index.js';
import { readModelDataSource } from '#placement/persistence/read-model-schema.js';

/** Where a rebuild fills the new read models, and where the replaced ones wait to be dropped. */
export const NEXT_SCHEMA = 'read_models_next';
export const RETIRED_SCHEMA = 'read_models_retired';

/**
 * Tables that describe the read models rather than hold a projection's rows. The candidate
 * snapshots are a cache of their own, remade after the swap and checked by verify separately.
 */
const META_TABLES: ReadonlySet<string> = new Set(['rm_migrations', 'rm_projection_checkpoints', 'rm_candidate_snapshots', 'rm_candidate_snapshot_parts']);

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const qualified = (schema: string, name: string) => `${quoteIdent(schema)}.${quoteIdent(name)}`;

export async function dropSchema(db: SqlClient, schema: string): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
}

/** An empty schema holding exactly what the migrations create: the read models' definition. */
export async function createMigratedSchema(db: SqlClient, url: string, schema: string): Promise<void> {
  await db.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
  const dataSource = readModelDataSource(url, schema, 1);
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'all' });
  } finally {
    await dataSource.destroy();
  }
}

/** Tables, sequences and views of a schema (indexes travel with their tables). */
export async function listRelations(db: SqlClient, schema: string): Promise<string[]> {
  const { rows } = await db.query<{ relname: string }>(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'S', 'v', 'm') ORDER BY 1`, [schema]);
  return rows.map((row) => row.relname);
}

export interface TableShape {
  readonly table: string;
  /** Column name -> SQL type as format_type prints it, in column order. */
  readonly types: ReadonlyMap<string, string>;
  /** The primary key's columns; every column when there is none. */
  readonly key: readonly string[];
}

/** The projections' tables of a schema, with their columns and keys, from the catalog. */
export async function tableShapes(db: SqlClient, schema: string): Promise<TableShape[]> {
  const { rows } = await db.query<{ table: string; column: string; type: string; in_key: boolean }>(
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
            COALESCE(a.attnum = ANY(i.indkey), false) AS in_key
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY c.relname, a.attnum`, [schema]);
  const shapes = new Map<string, { types: Map<string, string>; key: string[] }>();
  for (const row of rows) {
    if (META_TABLES.has(row.table)) continue;
    let shape = shapes.get(row.table);
    if (!shape) shapes.set(row.table, (shape = { types: new Map(), key: [] }));
    shape.types.set(row.column, row.type);
    if (row.in_key) shape.key.push(row.column);
  }
  return [...shapes].map(([table, { types, key }]) => ({ table, types, key: key.length > 0 ? key : [...types.keys()] }));
}
