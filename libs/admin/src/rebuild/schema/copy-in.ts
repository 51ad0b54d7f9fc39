import { Query } from 'pg';
import type { PoolClient } from 'pg';

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const SPECIAL = /[\\\t\n\r]/;
const escape = (text: string) => (SPECIAL.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]) : text);

/** COPY's text format: \N for null, backslash escapes for the characters that separate fields and rows. */
export function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return escape(typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * A column's formatter, picked once from its SQL type. Consecutive rows often share an instant
 * (every series of one hour, every row of one write), so the last one's text is kept.
 */
export function columnFormatter(sqlType: string): (value: unknown) => string {
  if (sqlType.startsWith('timestamp')) {
    let lastMs = NaN;
    let lastText = '';
    return (value) => {
      if (!(value instanceof Date)) return copyText(value);
      const ms = value.getTime();
      if (ms !== lastMs) {
        lastMs = ms;
        lastText = value.toISOString();
      }
      return lastText;
    };
  }
  if (sqlType === 'bigint' || sqlType === 'integer' || sqlType === 'smallint') {
    return (value) => (typeof value === 'number' ? String(value) : copyText(value));
  }
  if (sqlType === 'text' || sqlType.startsWith('character')) {
    return (value) => (typeof value === 'string' ? escape(value) : copyText(value));
  }
  return copyText;
}

/**
 * COPY ... FROM STDIN through node-postgres' own Query: the server asks for the data
 * (CopyInResponse) and gets it in one go. The caller keeps each call to a bounded number of
 * rows, so the whole text is never more than one chunk.
 */
class CopyIn extends Query {
  constructor(text: string, private readonly data: Buffer) {
    super(text);
  }

  handleCopyInResponse(connection: { sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void }): void {
    connection.sendCopyFromChunk(this.data);
    connection.endCopyFrom();
  }
}

/** Part of a table's rows as COPY text, ready to send; `rows`: how many. */
export interface CopyChunk {
  readonly table: string;
  readonly columns: readonly string[];
  readonly rows: number;
  readonly data: Buffer;
}

/** A table's rows as COPY text in chunks of at most `chunkRows`, each made when asked for; `types`: each column's SQL type. */
export function* copyChunks(
  table: { readonly table: string; readonly columns: readonly string[]; readonly rows: readonly (readonly unknown[])[] },
  types: ReadonlyMap<string, string>, chunkRows: number,
): Generator<CopyChunk> {
  const formatters = table.columns.map((column) => columnFormatter(types.get(column)!));
  for (let start = 0; start < table.rows.length; start += chunkRows) {
    const rows = table.rows.slice(start, start + chunkRows);
    yield { table: table.table, columns: table.columns, rows: rows.length, data: copyData(rows, formatters) };
  }
}

/** Rows as COPY's text: built as soon as rows are final, so they need not stay on the heap. */
function copyData(rows: readonly (readonly unknown[])[], formatters: readonly ((value: unknown) => string)[]): Buffer {
  let text = '';
  const last = formatters.length - 1;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    for (let i = 0; i < last; i++) text += formatters[i](row[i]) + '\t';
    text += formatters[last](row[last]) + '\n';
  }
  return Buffer.from(text, 'utf8');
}

export function sendCopy(client: PoolClient, sql: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    client.query(new CopyIn(sql, data) as never, (error: Error | null) => (error ? reject(error) : resolve()));
  });
}
