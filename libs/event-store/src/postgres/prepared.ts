import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { SqlClient } from './sql-client.js';

const names = new Map<string, string>();

/** A statement's name on every connection: from its text, so one text is prepared once per connection. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `pl_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * The append's connection for inline projections, each parameterised statement sent as a named
 * one: PostgreSQL parses and plans it once per connection instead of once per append. Their texts
 * are the projections' own, a small fixed set (a text built from data would grow this forever).
 */
export function preparing(client: PoolClient): SqlClient {
  return {
    query: <R extends Record<string, any> = any>(text: string, params?: unknown[]) => (params === undefined
      ? client.query<R>(text)
      : client.query<R>({ name: statementName(text), text, values: params })),
  };
}
