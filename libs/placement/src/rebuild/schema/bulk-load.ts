import type { Pool, PoolClient } from 'pg';
import type { Reporter } from '../admin-events.js';
import type { SequenceValue, TableRows } from '../memory/table-rows.js';
import { columnFormatter, copyRows } from './copy-in.js';
import { qualified, quoteIdent, TableShape, tableShapes } from './schema-admin.js';

const CHUNK_ROWS = 20_000;
/** Below this, keeping the indexes while copying costs less than building them again. */
const DEFER_INDEXES_FROM = 20_000;
/** Two cores: while one table's text is built here, the server ingests another's. */
const WORKERS = 2;

/**
 * Writes the final rows of every table into a schema nobody reads yet: COPY, a table per
 * connection on two connections, and the indexes of big tables built once after their rows
 * rather than row by row. Nothing needs one transaction: a failed rebuild drops the schema.
 */
export async function bulkLoad(
  pool: Pool, schema: string, tables: readonly TableRows[], sequences: readonly SequenceValue[], report: Reporter,
  deferIndexesFrom = DEFER_INDEXES_FROM,
) {
  const shapes = new Map((await tableShapes(pool, schema)).map((shape) => [shape.table, shape]));
  for (const table of tables) {
    const shape = shapes.get(table.table);
    const unknown = table.columns.find((column) => !shape?.types.has(column));
    if (unknown) throw new Error(`${schema}.${table.table} has no column ${unknown}`);
  }
  const queue = [...tables].sort((a, b) => b.rows.length - a.rows.length);
  const worker = async () => {
    const client = await pool.connect();
    try {
      // A chunk's commit need not wait for the disk: the swap's own commit flushes the WAL before it.
      await client.query(`SET maintenance_work_mem = '256MB'; SET synchronous_commit = off`);
      for (let table = queue.shift(); table; table = queue.shift()) {
        const started = performance.now();
        await loadTable(client, schema, shapes.get(table.table)!, table, deferIndexesFrom);
        await report({ kind: 'written', table: table.table, rows: table.rows.length, seconds: (performance.now() - started) / 1000 });
      }
    } finally {
      await client.query('RESET maintenance_work_mem; RESET synchronous_commit').catch(() => undefined);
      client.release();
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  for (const sequence of sequences) {
    await pool.query('SELECT setval($1::regclass, $2, false)', [qualified(schema, sequence.name), sequence.next]);
  }
}

/**
 * Each statement commits on its own: a long transaction with an id would hold back every
 * reader of the log's gap-free order (the candidate index, the feed) until it ended.
 */
async function loadTable(client: PoolClient, schema: string, shape: TableShape, table: TableRows, deferIndexesFrom: number): Promise<void> {
  if (table.rows.length === 0) return;
  const rebuild = table.rows.length >= deferIndexesFrom ? await dropIndexes(client, schema, table.table) : [];
  const copy = `COPY ${qualified(schema, table.table)} (${table.columns.map(quoteIdent).join(', ')}) FROM STDIN`;
  const formatters = table.columns.map((column) => columnFormatter(shape.types.get(column)!));
  for (let start = 0; start < table.rows.length; start += CHUNK_ROWS) {
    await copyRows(client, copy, table.rows.slice(start, start + CHUNK_ROWS), formatters);
  }
  for (const statement of rebuild) await client.query(statement);
}

/** Drops a table's keys and indexes; returns the statements that create them again, as they were. */
async function dropIndexes(client: PoolClient, schema: string, table: string): Promise<string[]> {
  const target = qualified(schema, table);
  const { rows: constraints } = await client.query<{ name: string; definition: string }>(
    `SELECT conname AS name, pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c
     WHERE c.conrelid = $1::regclass AND c.contype IN ('p', 'u') ORDER BY c.contype, conname`, [target]);
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`, [target]);
  for (const index of indexes) await client.query(`DROP INDEX ${qualified(schema, index.name)}`);
  for (const constraint of constraints) await client.query(`ALTER TABLE ${target} DROP CONSTRAINT ${quoteIdent(constraint.name)}`);
  return [
    ...constraints.map((c) => `ALTER TABLE ${target} ADD CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`),
    ...indexes.map((i) => i.definition),
  ];
}
