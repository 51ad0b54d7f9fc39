import { escapeLiteral } from 'pg';
import type { PoolClient, QueryResult } from 'pg';
// pg's own conversion of a parameter to its text form (dates, arrays, buffers, JSON), so that a
// value written into a statement is the text the server would have been sent as a parameter.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue(value: unknown): string | Buffer | null };
import { statementName } from './prepared.js';
import { SqlClient } from './sql-client.js';

/**
 * A transaction's connection that saves round trips: each round trip to PostgreSQL costs both
 * processes a wake-up, which on small virtual machines outweighs the statements themselves.
 *
 * Statements whose answer nobody needs (`defer`) are held and sent with the transaction's next
 * round trip: the next `query`, or at the latest the COMMIT (`takeDeferred`). Held statements go
 * out as one simple-protocol message with their parameters written in as literals, in the order
 * they were made; a `query` that has held statements before it joins that message, and answers
 * with its own statement's rows. A `query` with nothing held is sent as a named prepared
 * statement, parsed and planned once per connection. An error in any statement of a message
 * aborts the transaction, as it would have one round trip later.
 */
export class BatchedSql implements SqlClient {
  private held: string[] = [];

  constructor(private readonly client: PoolClient) {}

  defer(text: string, params?: readonly unknown[]): void {
    this.held.push(params === undefined ? text : withLiterals(text, params));
  }

  async query<R extends Record<string, any> = any>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }> {
    if (this.held.length === 0) {
      return params === undefined ? this.client.query<R>(text) : this.client.query<R>({ name: statementName(text), text, values: params });
    }
    const statements = [...this.held.splice(0), params === undefined ? text : withLiterals(text, params)];
    const results = await this.client.query(statements.join(';\n')) as unknown as QueryResult<R> | QueryResult<R>[];
    return Array.isArray(results) ? results[results.length - 1] : results;
  }

  /** What is still held, for the caller to send with its COMMIT; nothing is held after. */
  takeDeferred(): string[] {
    return this.held.splice(0);
  }
}

/**
 * The statement with each `$n` outside quotes replaced by the n-th parameter as a literal. An
 * untyped literal takes its type from where it stands, as an untyped parameter does.
 */
export function withLiterals(text: string, params: readonly unknown[]): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"') {
      // A quoted literal or identifier, its doubled quotes included, is copied as it is.
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === c) {
          if (text[j + 1] === c) j++;
          else break;
        }
      }
      if (j >= text.length) throw new Error('a statement with an unclosed quote cannot take literals');
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '$' && /[0-9]/.test(text[i + 1] ?? '')) {
      let j = i + 1;
      while (j < text.length && /[0-9]/.test(text[j])) j++;
      const n = Number(text.slice(i + 1, j));
      if (n < 1 || n > params.length) throw new Error(`$${n} has no parameter (${params.length} given)`);
      out += literal(params[n - 1]);
      i = j;
      continue;
    }
    if (c === '$') throw new Error('a statement with dollar quoting cannot take literals');
    out += c;
    i++;
  }
  return out;
}

function literal(value: unknown): string {
  const text = prepareValue(value);
  if (text === null) return 'NULL';
  if (Buffer.isBuffer(text)) return `'\\x${text.toString('hex')}'`;
  return escapeLiteral(text);
}
