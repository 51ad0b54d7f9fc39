import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { ALL_PROJECTIONS, inlineProjector, Projection } from '#projections/index.js';
import { READ_MODELS_SCHEMA } from '../persistence/read-model-schema.js';
import { Reporter, silent } from './admin-events.js';
import { comparable } from './comparison-rules.js';
import { EventStore, LogSnapshot, PostgresEventStore } from '#event-store/index.js';
import { CACHE_TABLES } from '../ledger/snapshots/snapshot-store.js';
import { SnapshotCheck, verifySnapshots } from '../ledger/snapshots/verify-snapshots.js';
import { TableRows, withStandardNames } from './memory/table-rows.js';
import { replayIntoMemory, replayThroughSql } from './replay.js';
import { diffTable, hasDrift, TableComparison, TableDiff } from './row-diff.js';
import { dropSchema, qualified, quoteIdent, TableShape, tableShapes } from './schema/schema-admin.js';
import { readTable } from './schema/table-reader.js';
import { planReplay, prepareTargetSchema } from './target-schema.js';

export interface VerifyOptions {
  readonly report?: Reporter;
  readonly sql?: boolean;
  readonly projections?: readonly Projection[];
  /** Where stream snapshots are checked against the log: the PostgreSQL log of `pool` unless given. */
  readonly store?: EventStore;
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
 * Replays the log as one snapshot sees it and compares the result with the live read models
 * read in that same snapshot, so concurrent appends never show up as drift. Changes nothing.
 */
export async function verifyReadModels(pool: Pool, url: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const report = options.report ?? silent;
  const projections = options.projections ?? ALL_PROJECTIONS;
  const started = performance.now();
  const reader = await pool.connect();
  try {
    const log = await LogSnapshot.open(reader);
    const live = new Map((await tableShapes(reader, READ_MODELS_SCHEMA)).filter((shape) => !CACHE_TABLES.includes(shape.table))
      .map((shape) => [shape.table, shape]));
    const plan = planReplay(projections, [...live.values()], options.sql === true);
    await report({ kind: 'step', message: `replaying ${log.total} events of snapshot ${log.snapshot}` });
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
    await log.close();
    const checked = new Set(tables.map((table) => table.table));
    await report({ kind: 'step', message: 'checking the as_of stream snapshots against the log' });
    const snapshots = await verifySnapshots(pool, options.store ?? new PostgresEventStore(pool));
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
async function replayInScratch(pool: Pool, url: string, log: LogSnapshot, projections: readonly Projection[], report: Reporter) {
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
