import type { Pool } from 'pg';
import { StreamLookup } from '../port.js';
import { typeCondition } from './event-store-schema.js';
import { pointCondition } from './log-reads.js';
import { statementName } from './prepared.js';

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The statement of a lookup, its values pushed onto `params`. The types and the field are written
 * into the text, spelled as the index's predicate and expression are (event-store-schema.ts): the
 * planner matches a partial expression index only against constants, never parameters, so the
 * lookups of INDEXED_LOOKUPS read their index's matches and nothing else. One row per stream, at
 * its first match (the readable bound of readAll is not needed: a stream seen here that a reader
 * of the global order would not see yet only adds a candidate its caller checks).
 */
export function streamLookupStatement(lookup: StreamLookup, params: unknown[]): string {
  if (!FIELD.test(lookup.field)) throw new Error(`a stream lookup's field must be a plain key, not ${JSON.stringify(lookup.field)}`);
  const conditions = [typeCondition(lookup.types), `(data->'${lookup.field}') @> $${params.push(JSON.stringify(lookup.value))}::jsonb`];
  if (lookup.until) conditions.push(pointCondition(lookup.until, params));
  return `SELECT stream_id FROM (
       SELECT DISTINCT ON (stream_id) stream_id, transaction_id, position FROM es_events
       WHERE ${conditions.join(' AND ')}
       ORDER BY stream_id, transaction_id, position) first
     ORDER BY transaction_id, position`;
}

export async function streamsWith(pool: Pool, lookup: StreamLookup): Promise<string[]> {
  if (lookup.types.length === 0) return [];
  const params: unknown[] = [];
  const text = streamLookupStatement(lookup, params);
  const { rows } = await pool.query<[string]>({ name: statementName(text), text, values: params, rowMode: 'array' });
  return rows.map((row) => row[0]);
}
