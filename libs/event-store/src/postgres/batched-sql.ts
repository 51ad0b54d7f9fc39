import type { PoolClient, QueryResult } from 'pg';
import { parameterText } from './parameter-text.js';
import { statementName } from './prepared.js';
import { SqlClient } from './sql-client.js';

/** A statement and its parameters (none: sent as it is written). */
export interface Held { readonly text: string; readonly params?: readonly unknown[] }

/** The statements prepared with SQL's PREPARE on each connection (pg's own named statements are another set). */
const preparedOn = new WeakMap<PoolClient, Set<string>>();

/**
 * A transaction's connection that saves round trips: each round trip to PostgreSQL costs both
 * processes a wake-up, which on small virtual machines outweighs the statements themselves.
 *
 * Statements whose answer nobody needs (`defer`) are held and sent with the transaction's next
 * round trip: the next `query`, or at the latest the COMMIT (`takeDeferred`). Held statements go
 * out as one simple-protocol message, in the order they were made; a `query` that has held
 * statements before it joins that message, and answers with its own statement's rows. Each
 * parameterised statement of such a message is an EXECUTE of a statement PREPAREd once per
 * connection (in a round trip of its own, the first time): planned once, and its parameters,
 * written in as literals by pg's own conversion, take the types the statement's parameters
 * were given, as they would sent apart. A `query` with nothing held is sent as a named
 * statement of the protocol, and so is a statement with long parameters (LONG_PARAMETERS), after
 * a message of the statements held. An error in any statement of a message aborts the transaction, as
 * it would have one round trip later. The texts are the store's and the projections' own, a
 * small fixed set: a text built from data would prepare a statement per value.
 */
export class BatchedSql implements SqlClient {
  private held: Held[] = [];

  constructor(private readonly client: PoolClient) {}

  defer(text: string, params?: readonly unknown[]): void {
    this.held.push({ text, params });
  }

  async query<R extends Record<string, any> = any>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }> {
    if (this.held.length === 0) {
      return params === undefined ? this.client.query<R>(text) : this.client.query<R>({ name: statementName(text), text, values: params });
    }
    const [result] = await this.queryEach<R>([{ text, params }]);
    return result;
  }

  /**
   * Several statements whose answers are needed, sent in one message after those held: each
   * one's rows, in order. An error in any of them fails the whole message, as in `query`.
   */
  async queryEach<R extends Record<string, any> = any>(statements: readonly Held[]): Promise<{ rows: R[]; rowCount: number | null }[]> {
    if (statements.length === 0) return [];
    if (statements.some((statement) => parametersLength(statement.params) > LONG_PARAMETERS)) {
      // Sent apart, each as a named statement of the protocol, after what is held.
      if (this.held.length > 0) await this.client.query((await this.render(this.held.splice(0))).join(';\n'));
      const results: { rows: R[]; rowCount: number | null }[] = [];
      for (const { text, params } of statements) results.push(await this.query<R>(text, params && [...params]));
      return results;
    }
    const rendered = await this.render([...this.held.splice(0), ...statements]);
    const results = await this.client.query(rendered.join(';\n')) as unknown as QueryResult<R> | QueryResult<R>[];
    return (Array.isArray(results) ? results : [results]).slice(-statements.length);
  }

  /** What is still held, as statements for the caller to send with its COMMIT; nothing is held after. */
  takeDeferred(): Promise<string[]> {
    return this.render(this.held.splice(0));
  }

  private async render(statements: readonly Held[]): Promise<string[]> {
    const prepared = await this.preparedHere();
    const missing = new Map<string, string>();
    for (const { text, params } of statements) {
      const name = params === undefined ? undefined : sqlName(text);
      if (name !== undefined && !prepared.has(name)) missing.set(name, text);
    }
    if (missing.size > 0) {
      try {
        await this.client.query([...missing].map(([name, text]) => `PREPARE ${name} AS ${text}`).join(';\n'));
      } catch (error) {
        // Some of them may stand prepared now: the connection is asked again before its next use.
        preparedOn.delete(this.client);
        throw error;
      }
      for (const name of missing.keys()) prepared.add(name);
    }
    return statements.map(({ text, params }) => (params === undefined ? text : executeOf(sqlName(text), params)));
  }

  /** What this connection has prepared: remembered, or asked of the server the first time (outside a transaction: appends render before BEGIN). */
  private async preparedHere(): Promise<Set<string>> {
    let prepared = preparedOn.get(this.client);
    if (!prepared) {
      const { rows } = await this.client.query<{ name: string }>("SELECT name FROM pg_prepared_statements WHERE name LIKE 'plx\\_%'");
      prepared = new Set(rows.map((row) => row.name));
      preparedOn.set(this.client, prepared);
    }
    return prepared;
  }
}

/**
 * Parameters longer than this (in characters: an import's thousands of events) go with the
 * protocol, not written into a message: the server reads a long literal more slowly than the
 * same parameter, by more than a round trip costs.
 */
const LONG_PARAMETERS = 64 * 1024;

/** The length of the parameters' texts, and of arrays' texts one level down: the values an append sends. */
function parametersLength(params: readonly unknown[] | undefined): number {
  let length = 0;
  for (const param of params ?? []) {
    if (typeof param === 'string') length += param.length;
    else if (Array.isArray(param)) for (const item of param) if (typeof item === 'string') length += item.length;
  }
  return length;
}

/** The name a text is PREPAREd under. */
export const sqlName = (text: string) => statementName(text, 'plx');

/** EXECUTE of a prepared statement with its parameters as literals. */
export function executeOf(name: string, params: readonly unknown[]): string {
  return params.length === 0 ? `EXECUTE ${name}` : `EXECUTE ${name}(${params.map(literal).join(', ')})`;
}

function literal(value: unknown): string {
  const text = parameterText(value);
  if (text === null) return 'NULL';
  if (Buffer.isBuffer(text)) return `'\\x${text.toString('hex')}'`;
  // Usually nothing needs escaping, and one native scan says so. An event's JSON in an array
  // always does (its quotes are backslashed): dollar quoting takes the text as it is, where
  // doubling every quote and backslash (as pg's escapeLiteral does) copied it once more per append.
  if (!NEEDS_ESCAPING.test(text)) return `'${text}'`;
  if (dollarQuotable(text)) return `${DOLLAR_QUOTE}${text}${DOLLAR_QUOTE}`;
  const doubled = text.replace(ESCAPED, '$&$&');
  return text.includes('\\') ? ` E'${doubled}'` : `'${doubled}'`;
}

/** The tag of a dollar-quoted literal. */
const DOLLAR_QUOTE = '$plx$';

/**
 * Whether the closing tag would be the first tag after the opening one: a text holding it would
 * end the literal early, and so would one ending in `$plx` (its `$plx` and the tag's first `$`).
 * The tag's only border is `$`, so no other ending can begin it.
 */
const dollarQuotable = (text: string) => !text.includes(DOLLAR_QUOTE) && !text.endsWith(DOLLAR_QUOTE.slice(0, -1));

/** What escapeLiteral doubles: quotes, and backslashes (which also make it an E'' literal). */
const NEEDS_ESCAPING = /['\\]/;
const ESCAPED = /['\\]/g;
