import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { ALL_PROJECTIONS, inlineProjector, Projection } from '#projections/index.js';
import { READ_MODELS_SCHEMA } from '#placement/persistence/read-model-schema.js';
import { Reporter, silent } from './admin-events.js';
import { comparable } from './comparison-rules.js';
import { EventStore, LogPosition } from '#event-store/index.js';
import { CACHE_TABLES } from '#placement/ledger/snapshots/snapshot-store.js';
import { SnapshotCheck, verifySnapshots } from '#placement/ledger/snapshots/verify-snapshots.js';
import { TableRows, withStandardNames } from './memory/table-rows.js';
import { describeRange, LogRange, logUpTo, replayIntoMemory, replayThroughSql } from './replay.js';
import { diffTable, hasDrift, TableComparison, TableDiff } from './row-diff.js';
import { dropSchema, qualified, quoteIdent, TableShape, tableShapes } from './schema/schema-admin.js';
import { readTable } from './schema/table-reader.js';
import { planReplay, prepareTargetSchema } from './target-schema.js';

export interface VerifyOptions {
  readonly report?: Reporter;
  readonly sql?: boolean;
  readonly projections?: readonly Projection[];
  /**
   * How the read models are written: inline, in each append's transaction (the log in this
   * PostgreSQL), or async, by a projector that records in them how far it has come.
   */
  readonly mode?: 'inline' | 'async';
}

export interface VerifyResult {
  readonly mode: 'memory' | 'sql';
  readonly events: number;
  readonly seconds: number;
  readonly tables: readonly TableDiff[];
  /** Live tables no projection's replay accounts for. */
  readonly unchecked: readonly string[];
  /** The as_of stream snapshots (a cache): how many, and those the log contradicts. */
  readonly snapshots: SnapshotCheck;
  readonly drift: boolean;
}

/**
 * Takes one snapshot of the live read models, replays the log up to exactly the position they
 * stand at, and compares the two, so concurrent appends never show up as drift. Changes nothing.
 */
export async function verifyReadModels(pool: Pool, url: string, store: EventStore, options: VerifyOptions = {}): Promise<VerifyResult> {
  const report = options.report ?? silent;
  const projections = options.projections ?? ALL_PROJECTIONS;
  const started = performance.now();
  const reader = await pool.connect();
  try {
    const log = await logUpTo(store, await openLiveSnapshot(reader, store, options.mode ?? 'inline', projections));
    const live = new Map((await tableShapes(reader, READ_MODELS_SCHEMA)).filter((shape) => !CACHE_TABLES.includes(shape.table))
      .map((shape) => [shape.table, shape]));
    const plan = planReplay(projections, [...live.values()], options.sql === true);
    await report({ kind: 'step', message: `replaying ${describeRange(log)}` });
    let expected: TableRows[];
    let events: number;
    if (plan.kind === 'memory') {
      const replayed = await replayIntoMemory(log, plan, report);
      events = replayed.outcome.events;
      expected = withStandardNames(replayed.memory.tables(), await standardTraitTimes(reader));
    } else {
      await report({ kind: 'step', message: `replaying through the projections' SQL: ${plan.reason}` });
      ({ expected, events } = await replayInScratch(pool, url, log, projections, report));
    }
    const tables: TableDiff[] = [];
    expected = expected.filter((table) => !CACHE_TABLES.includes(table.table));
    for (let i = 0; i < expected.length; i++) {
      const table = expected[i];
      const shape = live.get(table.table);
      tables.push(shape ? await compareWithLive(reader, shape, table) : diffTable(table.columns, table, { ...table, rows: [] }));
      // Let the garbage collector have each table once compared: a big log's rows fill the heap twice over.
      (expected as (TableRows | null)[])[i] = null;
    }
    await reader.query('COMMIT');
    const checked = new Set(tables.map((table) => table.table));
    await report({ kind: 'step', message: 'checking the as_of stream snapshots against the log' });
    const snapshots = await verifySnapshots(pool, store);
    return {
      mode: plan.kind, events, seconds: (performance.now() - started) / 1000, tables,
      unchecked: [...live.keys()].filter((table) => !checked.has(table)), snapshots,
      drift: tables.some(hasDrift) || snapshots.invalid.length > 0,
    };
  } catch (error) {
    await reader.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    reader.release();
  }
}

/**
 * Begins the reader's snapshot of the read models and says which log position it shows. Inline
 * projections commit with their appends: with appends held, the snapshot shows the log up to the
 * head exactly. A projector commits its checkpoints with its rows: the snapshot shows the log up
 * to the checkpoints it holds, which must then agree.
 */
async function openLiveSnapshot(reader: PoolClient, store: EventStore, mode: 'inline' | 'async', projections: readonly Projection[]): Promise<LogPosition> {
  const begin = async () => {
    await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // The snapshot is taken by the transaction's first statement, not by BEGIN.
    return reader.query<{ commit: string; position: string }>(
      `SELECT DISTINCT commit_xid::text AS commit, position::text AS position FROM ${qualified(READ_MODELS_SCHEMA, 'rm_projection_checkpoints')}
       WHERE projection = ANY($1::text[])`, [projections.map((projection) => projection.name)]);
  };
  if (mode === 'inline') return store.holdAppends(async (head) => { await begin(); return head; });
  const { rows } = await begin();
  if (rows.length !== 1) {
    throw new Error('the projections stand at different checkpoints (one is catching up); verify again once the projector has caught up');
  }
  return { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].position) };
}

/** Streams the live table through a cursor against the expected rows; whole only where ranks need every row. */
async function compareWithLive(reader: PoolClient, shape: TableShape, table: TableRows): Promise<TableDiff> {
  if (comparable(table) !== table) {
    return diffTable(shape.key, comparable(table), comparable(await readTable(reader, READ_MODELS_SCHEMA, shape, table.columns)));
  }
  const comparison = new TableComparison(shape.key, table, table.columns);
  await reader.query(`DECLARE live_rows NO SCROLL CURSOR FOR SELECT ${table.columns.map(quoteIdent).join(', ')} FROM ${qualified(READ_MODELS_SCHEMA, shape.table)}`);
  for (;;) {
    const { rows } = await reader.query<unknown[]>({ text: 'FETCH 50000 FROM live_rows', rowMode: 'array' });
    if (rows.length === 0) break;
    comparison.compare(rows);
  }
  await reader.query('CLOSE live_rows');
  return comparison.finish();
}

async function standardTraitTimes(reader: PoolClient): Promise<Map<string, Date | null>> {
  const { rows } = await reader.query<{ name: string; created_at: Date | null }>('SELECT name, created_at FROM rm_traits WHERE NOT custom');
  return new Map(rows.map((row) => [row.name, row.created_at]));
}

/** The projections' SQL into a throw-away schema of this run's own, read back and dropped. */
async function replayInScratch(pool: Pool, url: string, log: LogRange, projections: readonly Projection[], report: Reporter) {
  const scratch = `read_models_verify_${randomUUID().slice(0, 8)}`;
  const writer = await pool.connect();
  try {
    await prepareTargetSchema(pool, url, scratch, READ_MODELS_SCHEMA, projections);
    const outcome = await replayThroughSql(log, writer, scratch, inlineProjector(projections), report);
    const shapes: TableShape[] = await tableShapes(writer, scratch);
    const expected: TableRows[] = [];
    for (const shape of shapes) expected.push(await readTable(writer, scratch, shape));
    return { expected, events: outcome.events };
  } finally {
    writer.release();
    await dropSchema(pool, scratch);
  }
}
