import type { PoolClient } from 'pg';
import { parameterText } from './parameter-text.js';
import { statementName } from './prepared.js';
import { SqlClient } from './sql-client.js';

/** A statement and its parameters (none: sent as it is written). */
export interface Held { readonly text: string; readonly params?: readonly unknown[] }

/** The statements prepared with SQL's PREPARE on each connection (pg's own named statements are another set). */
const preparedOn = new WeakMap<PoolClient, Set<string>>();

/** A statement's answer. */
export interface Answered<R extends Record<string, any> = any> { rows: R[]; rowCount: number | null }

/** The answers to statements held by `hold`: there once the round trip that carried them was answered. */
export interface HeldAnswers { results?: Answered[] }

interface Entry {
  readonly statement: Held;
  readonly answer?: (result: Answered) => void;
}

/**
 * A transaction's connection that saves round trips: each round trip to PostgreSQL costs both
 * processes a wake-up, which on small virtual machines outweighs the statements themselves.
 *
 * Statements whose answer is not needed yet (`defer`, `hold`) are held and sent with the
 * transaction's next round trip: the next `query`, or at the latest the COMMIT (`commit`). Held
 * statements go out as one simple-protocol message, in the order they were made; a `query` that
 * has held statements before it joins that message, and answers with its own statement's rows.
 * Each parameterised statement of such a message is an EXECUTE of a statement PREPAREd once per
 * connection (in a round trip of its own, the first time): planned once, and its parameters,
 * written in as literals by pg's own conversion, take the types the statement's parameters
 * were given, as they would sent apart. A `query` with nothing held is sent as a named
 * statement of the protocol, and so is a statement with long parameters (LONG_PARAMETERS),
 * between messages of the statements around it. An error in any statement of a message aborts
 * the transaction, as it would have one round trip later. The texts are the store's and the
 * projections' own, a small fixed set: a text built from data would prepare a statement per value.
 */
export class BatchedSql implements SqlClient {
  private held: Entry[] = [];

  constructor(private readonly client: PoolClient) {}

  defer(text: string, params?: readonly unknown[]): void {
    this.held.push({ statement: { text, params } });
  }

  /**
   * Statements whose answers are needed, but not before the transaction's next round trip: held
   * as `defer` holds them, their answers found in the result once that round trip is answered.
   */
  hold(statements: readonly Held[]): HeldAnswers {
    const held: HeldAnswers = {};
    const results: Answered[] = [];
    let pending = statements.length;
    for (const [i, statement] of statements.entries()) {
      this.held.push({ statement, answer: (result) => {
        results[i] = result;
        if (--pending === 0) held.results = results;
      } });
    }
    return held;
  }

  async query<R extends Record<string, any> = any>(text: string, params?: unknown[]): Promise<Answered<R>> {
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
  async queryEach<R extends Record<string, any> = any>(statements: readonly Held[]): Promise<Answered<R>[]> {
    if (statements.length === 0) return [];
    const results = await this.send([...this.held.splice(0), ...statements.map((statement) => ({ statement }))]);
    return results.slice(-statements.length) as Answered<R>[];
  }

  /** What is held, then the COMMIT, in one message; nothing is held after. */
  async commit(): Promise<void> {
    await this.send([...this.held.splice(0), { statement: { text: 'COMMIT' } }]);
  }

  /**
   * The entries in order, in as few round trips as their parameters allow: one message for each
   * run of them, and a statement with long parameters apart. Each held answer is given its result.
   */
  private async send(entries: readonly Entry[]): Promise<Answered[]> {
    const results: Answered[] = [];
    for (let from = 0; from < entries.length;) {
      let to = from;
      while (to < entries.length && parametersLength(entries[to].statement.params) <= LONG_PARAMETERS) to++;
      if (to > from) {
        const rendered = await this.render(entries.slice(from, to).map((entry) => entry.statement));
        const answered = await this.client.query(rendered.join(';\n')) as unknown as Answered | Answered[];
        results.push(...(Array.isArray(answered) ? answered : [answered]));
      }
      if (to < entries.length) {
        const { text, params } = entries[to].statement;
        results.push(await this.client.query({ name: statementName(text), text, values: params && [...params] }));
        to++;
      }
      from = to;
    }
    entries.forEach((entry, i) => entry.answer?.(results[i]));
    return results;
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
