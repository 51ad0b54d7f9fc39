import type { Pool, PoolClient } from 'pg';
import type { TableRows } from '../memory/table-rows.js';
import { qualified, quoteIdent, TableShape } from './schema-admin.js';

/** A whole table, in the columns asked for (the in-memory rows' columns when comparing with them). */
export async function readTable(db: Pool | PoolClient, schema: string, shape: TableShape, columns?: readonly string[]): Promise<TableRows> {
  const wanted = columns ?? [...shape.types.keys()];
  const { rows } = await db.query<unknown[]>({
    text: `SELECT ${wanted.map(quoteIdent).join(', ')} FROM ${qualified(schema, shape.table)}`,
    rowMode: 'array',
  });
  return { table: shape.table, columns: wanted, rows };
}
