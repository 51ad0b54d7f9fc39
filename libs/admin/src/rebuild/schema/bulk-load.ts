import type { Pool, PoolClient } from 'pg';
import type { Reporter } from '../admin-events.js';
import type { SequenceValue, TableRows } from '../memory/table-rows.js';
import { CopyChunk, copyChunks, sendCopy } from './copy-in.js';
import { qualified, quoteIdent, TableShape, tableShapes } from './schema-admin.js';

export const CHUNK_ROWS = 20_000;
/** Below this, keeping the indexes while copying costs less than building them again. */
const DEFER_INDEXES_FROM = 20_000;
/** Two cores: while rows are turned into text here, the server ingests others. */
const WORKERS = 2;
/** How many rows may wait for a connection before write() makes its caller wait: what waits when the replay ends delays the indexes. */
const MAX_WAITING_ROWS = 60_000;

/** Rows as COPY text (built when queued, so that the rows need not stay on the heap), or a table's deferred indexes. */
type Job =
  | { readonly kind: 'copy'; readonly table: string; readonly copy: string; readonly rows: number; readonly data: Buffer }
  | { readonly kind: 'indexes'; readonly table: string; readonly deferral: Deferral };

/**
 * A table's indexes, dropped by the first chunk copied into it and built again by its indexes
 * job; known from the moment its rows are queued, so that the job can be queued at any time.
 */
class Deferral {
  private started = false;
  private resolve!: (statements: string[]) => void;
  private reject!: (error: unknown) => void;
  readonly statements = new Promise<string[]>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });

  constructor(private readonly schema: string, private readonly table: string) {
    this.statements.catch(() => undefined);
  }

  async drop(client: PoolClient): Promise<void> {
    if (!this.started) {
      this.started = true;
      dropIndexes(client, this.schema, this.table).then(this.resolve, this.reject);
    }
    await this.statements;
  }
}

/**
 * Writes rows into a schema nobody reads yet, with COPY on two connections, while its caller
 * goes on producing more (a rebuild writes the hours the log has left behind while it replays). A
 * table written in parts, or big, gets its keys and indexes built once after its last row
 * rather than row by row. Nothing needs one transaction: a failed rebuild drops the schema.
 */
export class BulkLoader {
  private readonly jobs: Job[] = [];
  private waitingRows = 0;
  private wake: (() => void)[] = [];
  private closed = false;
  private failure: unknown = null;
  private readonly workers: Promise<void>[];
  /** Per table whose indexes wait for its last row. */
  private readonly deferred = new Map<string, Deferral>();
  private readonly completed = new Set<string>();
  private readonly stats = new Map<string, { rows: number; ms: number }>();

  private constructor(
    private readonly pool: Pool, private readonly schema: string, private readonly shapes: Map<string, TableShape>,
    private readonly deferIndexesFrom: number,
  ) {
    this.workers = Array.from({ length: WORKERS }, () => this.work().catch((error) => this.fail(error)));
  }

  static async open(pool: Pool, schema: string, deferIndexesFrom = DEFER_INDEXES_FROM): Promise<BulkLoader> {
    const shapes = new Map((await tableShapes(pool, schema)).map((shape) => [shape.table, shape]));
    return new BulkLoader(pool, schema, shapes, deferIndexesFrom);
  }

  /**
   * Queues rows; `partial`: more rows of these tables will follow, and the caller (still
   * producing) waits while too much is queued. The last rows are queued without waiting: the
   * caller has them in memory already, and a connection building indexes must not keep it from
   * formatting them.
   */
  async write(tables: readonly TableRows[], partial = false): Promise<void> {
    if (this.failure !== null) throw this.failure;
    this.checkColumns(tables);
    for (const table of [...tables].sort((a, b) => b.rows.length - a.rows.length)) {
      if (table.rows.length === 0) continue;
      this.deferIfBig(table.table, partial || table.rows.length >= this.deferIndexesFrom);
      for (const chunk of copyChunks(table, this.shapes.get(table.table)!.types, CHUNK_ROWS)) {
        this.queue(chunk);
        // A chunk takes this thread tens of milliseconds: in between, the connections send what is
        // queued (a COPY already started waits for its data while this thread is busy).
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (partial) await this.room();
    if (this.failure !== null) throw this.failure;
  }

  /** Rows made COPY text elsewhere (another thread), queued as partial ones: call room() to wait while too much is queued. */
  writeChunks(chunks: readonly CopyChunk[]): void {
    this.checkColumns(chunks);
    for (const chunk of chunks) {
      this.deferIfBig(chunk.table, true);
      this.queue(chunk);
    }
  }

  /** Resolves once few enough rows wait for a connection (at once when the load has failed: write() says why). */
  async room(): Promise<void> {
    while (this.waitingRows > MAX_WAITING_ROWS && this.failure === null) await new Promise<void>((resolve) => this.wake.push(resolve));
    if (this.failure !== null) throw this.failure;
  }

  private checkColumns(tables: readonly { readonly table: string; readonly columns: readonly string[] }[]): void {
    for (const table of tables) {
      const shape = this.shapes.get(table.table);
      const unknown = table.columns.find((column) => !shape?.types.has(column));
      if (unknown) throw new Error(`${this.schema}.${table.table} has no column ${unknown}`);
    }
  }

  private deferIfBig(table: string, defer: boolean): void {
    if (defer && !this.deferred.has(table) && !this.completed.has(table)) this.deferred.set(table, new Deferral(this.schema, table));
  }

  private queue(chunk: CopyChunk): void {
    const copy = `COPY ${qualified(this.schema, chunk.table)} (${chunk.columns.map(quoteIdent).join(', ')}) FROM STDIN`;
    this.jobs.push({ kind: 'copy', table: chunk.table, copy, rows: chunk.rows, data: chunk.data });
    this.waitingRows += chunk.rows;
    this.signal();
  }

  /** These tables' columns' SQL types, as plain data. */
  columnTypes(tables: readonly string[]): Record<string, Record<string, string>> {
    return Object.fromEntries(tables.map((table) => [table, Object.fromEntries(this.shapes.get(table)?.types ?? [])]));
  }

  /**
   * No more rows will come for these tables: their indexes are built as soon as a connection is
   * free, while other tables are still being written.
   */
  complete(tables: readonly string[]): void {
    for (const table of tables) {
      const deferral = this.deferred.get(table);
      if (!deferral || this.completed.has(table)) continue;
      this.completed.add(table);
      this.jobs.push({ kind: 'indexes', table, deferral });
    }
    this.signal();
  }

  /** Once every row is in: builds the indexes still deferred, sets the sequences, reports each table. */
  async finish(sequences: readonly SequenceValue[], report: Reporter): Promise<void> {
    this.complete([...this.deferred.keys()]);
    this.closed = true;
    this.signal();
    await Promise.all(this.workers);
    if (this.failure !== null) throw this.failure;
    for (const sequence of sequences) {
      await this.pool.query('SELECT setval($1::regclass, $2, false)', [qualified(this.schema, sequence.name), sequence.next]);
    }
    const tables = [...this.stats].sort(([, a], [, b]) => b.rows - a.rows);
    for (const [table, { rows, ms }] of tables) await report({ kind: 'written', table, rows, seconds: ms / 1000 });
  }

  private async work(): Promise<void> {
    await this.withClient(async (client) => {
      // A chunk's commit need not wait for the disk: the swap's own commit flushes the WAL before it.
      await client.query(`SET maintenance_work_mem = '256MB'; SET synchronous_commit = off`);
      try {
        for (;;) {
          const job = this.jobs.shift();
          if (!job) {
            if (this.closed || this.failure !== null) return;
            await new Promise<void>((resolve) => this.wake.push(resolve));
            continue;
          }
          const started = performance.now();
          if (job.kind === 'indexes') {
            for (const statement of await job.deferral.statements) await client.query(statement);
            this.count(job.table, 0, performance.now() - started);
            continue;
          }
          await this.deferred.get(job.table)?.drop(client);
          await sendCopy(client, job.copy, job.data);
          this.count(job.table, job.rows, performance.now() - started);
          this.waitingRows -= job.rows;
          this.signal();
        }
      } finally {
        await client.query('RESET maintenance_work_mem; RESET synchronous_commit').catch(() => undefined);
      }
    });
  }

  private count(table: string, rows: number, ms: number): void {
    const stats = this.stats.get(table) ?? { rows: 0, ms: 0 };
    this.stats.set(table, { rows: stats.rows + rows, ms: stats.ms + ms });
  }

  get rowsWritten(): number {
    return [...this.stats.values()].reduce((sum, table) => sum + table.rows, 0);
  }

  /** The caller failed: stop after the chunks being copied, and give the connections back. */
  async abandon(): Promise<void> {
    this.closed = true;
    this.fail(new Error('bulk load abandoned'));
    await Promise.all(this.workers);
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    this.signal();
  }

  private signal(): void {
    const waiting = this.wake;
    this.wake = [];
    for (const resolve of waiting) resolve();
  }

  private async withClient<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      return await work(client);
    } finally {
      client.release();
    }
  }
}

/** Every table at once, for a caller that has all the rows already. */
export async function bulkLoad(
  pool: Pool, schema: string, tables: readonly TableRows[], sequences: readonly SequenceValue[], report: Reporter,
  deferIndexesFrom = DEFER_INDEXES_FROM,
): Promise<void> {
  const loader = await BulkLoader.open(pool, schema, deferIndexesFrom);
  await loader.write(tables);
  await loader.finish(sequences, report);
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
