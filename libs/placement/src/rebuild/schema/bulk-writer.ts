import type { SqlClient } from '../../../../event-store/src/index.js';
import type { SequenceValue, TableRows } from '../memory/table-rows.js';
import { qualified, quoteIdent, TableShape } from './schema-admin.js';

const CHUNK_ROWS = 25_000;

/** Dates go as ISO text (exact to the millisecond, as the projections wrote them, and cheap); objects as jsonb text. */
const wire = (value: unknown) =>
  value instanceof Date ? value.toISOString() : value !== null && typeof value === 'object' ? JSON.stringify(value) : value;

/**
 * Writes a table's rows with one multi-row INSERT ... SELECT FROM unnest(...) per chunk: a
 * statement per 25,000 rows rather than per row.
 */
export async function bulkInsert(db: SqlClient, schema: string, shape: TableShape, table: TableRows): Promise<void> {
  const casts = table.columns.map((column, index) => {
    const type = shape.types.get(column);
    if (!type) throw new Error(`${schema}.${table.table} has no column ${column}`);
    return `$${index + 1}::${type}[]`;
  });
  const sql = `INSERT INTO ${qualified(schema, table.table)} (${table.columns.map(quoteIdent).join(', ')})
               SELECT * FROM unnest(${casts.join(', ')})`;
  for (let start = 0; start < table.rows.length; start += CHUNK_ROWS) {
    const chunk = table.rows.slice(start, start + CHUNK_ROWS);
    const columns = table.columns.map((_, index) => chunk.map((row) => wire(row[index])));
    await db.query(sql, columns);
  }
}

/** A sequence continues where the replay left it, so the next write numbers on from there. */
export async function restoreSequence(db: SqlClient, schema: string, sequence: SequenceValue): Promise<void> {
  await db.query('SELECT setval($1::regclass, $2, false)', [qualified(schema, sequence.name), sequence.next]);
}
