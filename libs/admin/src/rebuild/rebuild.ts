import type { Pool, PoolClient } from 'pg';
import { EventStore, inTransaction } from '#event-store/index.js';
import { ALL_PROJECTIONS, inlineProjector, Projection } from '#projections/index.js';
import { READ_MODELS_SCHEMA } from '#placement/persistence/read-model-schema.js';
import { Reporter, silent } from './admin-events.js';
import { eventsPerSecond } from './progress.js';
import type { MemoryPlan } from './memory/memory-replays.js';
import { describeRange, LogRange, logUpTo, replayIntoMemory, replayThroughSql } from './replay.js';
import { BulkLoader, CHUNK_ROWS } from './schema/bulk-load.js';
import { DrainedWriter } from './drained-writer.js';
import { USAGE_ROWS_TABLES, UsageRowsThread } from './memory/usage-rows.js';
import { dropSchema, NEXT_SCHEMA, quoteIdent, RETIRED_SCHEMA, tableShapes } from './schema/schema-admin.js';
import { catchUp, refuseStrangers, swapIn } from './swap.js';
import { planReplay, prepareTargetSchema } from './target-schema.js';

export interface RebuildOptions {
  readonly report?: Reporter;
  /** Replay the projections' SQL even where the in-memory replay could serve. */
  readonly sql?: boolean;
  readonly projections?: readonly Projection[];
}

export interface RebuildResult {
  readonly mode: 'memory' | 'sql';
  /** Events replayed from the snapshot, and how fast (reading, applying and writing the rows). */
  readonly events: number;
  readonly seconds: number;
  readonly eventsPerSecond: number;
  /** Events committed while the rebuild ran, applied before and during the swap. */
  readonly caughtUp: number;
  /** How long appends waited for the swap. */
  readonly lockedMs: number;
  /** Where the time went: reading and replaying the log, and writing the final rows (memory replay). */
  readonly replaySeconds: number;
  readonly rowsWritten: number;
  readonly writeSeconds: number;
}

class RebuildRefused extends Error {}

export const REBUILD_LOCK = "hashtext('placement: rebuild')";

/**
 * Rebuilds every read model from the log into a new schema and swaps it in. Reads go on
 * against the old tables all along; appends pause only while the last events are applied and
 * the schemas are renamed, in one short transaction.
 */
export async function rebuildReadModels(pool: Pool, url: string, store: EventStore, options: RebuildOptions = {}): Promise<RebuildResult> {
  const report = options.report ?? silent;
  const projections = options.projections ?? ALL_PROJECTIONS;
  const guard = await pool.connect();
  try {
    const { rows } = await guard.query(`SELECT pg_try_advisory_lock(${REBUILD_LOCK}) AS ok`);
    if (!rows[0].ok) throw new RebuildRefused('another rebuild is running on this database');
    await dropSchema(guard, RETIRED_SCHEMA);
    await report({ kind: 'step', message: `creating ${NEXT_SCHEMA} from the migrations` });
    await prepareTargetSchema(pool, url, NEXT_SCHEMA, READ_MODELS_SCHEMA, projections);
    await refuseStrangers(pool, NEXT_SCHEMA);
    const plan = planReplay(projections, await tableShapes(pool, NEXT_SCHEMA), options.sql === true);
    if (plan.kind === 'sql') await report({ kind: 'step', message: `replaying through the projections' SQL: ${plan.reason}` });
    const started = performance.now();
    const log = await logUpTo(store);
    await report({ kind: 'step', message: `replaying ${describeRange(log)}` });
    const { outcome, rowsWritten, writeSeconds } = plan.kind === 'memory'
      ? await replayWhileWriting(pool, log, plan, report)
      : await withWriter(pool, async (writer) => {
          const outcome = await replayThroughSql(log, writer, NEXT_SCHEMA, inlineProjector(projections), report);
          return { outcome, rowsWritten: 0, writeSeconds: 0 };
        });
    const seconds = (performance.now() - started) / 1000;
    const projector = inlineProjector(projections);
    const caught = await catchUp(pool, store, NEXT_SCHEMA, log.until, projector, report);
    const swap = await swapIn(pool, store, NEXT_SCHEMA, caught.position, projector, projections, { events: outcome.events, seconds }, report);
    await report({ kind: 'step', message: 'dropping the replaced read models' });
    await dropSchema(guard, RETIRED_SCHEMA);
    return {
      mode: plan.kind, events: outcome.events, seconds, eventsPerSecond: eventsPerSecond(outcome.events, seconds),
      replaySeconds: outcome.seconds, rowsWritten, writeSeconds,
      caughtUp: caught.events + swap.events, lockedMs: swap.lockedMs,
    };
  } catch (error) {
    if (!(error instanceof RebuildRefused)) await dropSchema(guard, NEXT_SCHEMA).catch(() => undefined);
    throw error;
  } finally {
    await guard.query(`SELECT pg_advisory_unlock(${REBUILD_LOCK})`).catch(() => undefined);
    guard.release();
  }
}

/**
 * The log into memory, the hours it leaves behind written while it goes on (another thread makes
 * their rows, and the server ingests them on its core, while this one replays), then the rest of
 * the rows, the indexes, and what came too late for its rows through the projections' SQL.
 */
async function replayWhileWriting(pool: Pool, log: LogRange, plan: Extract<MemoryPlan, { kind: 'memory' }>, report: Reporter) {
  const loader = await BulkLoader.open(pool, NEXT_SCHEMA);
  const thread = UsageRowsThread.start(loader.columnTypes(USAGE_ROWS_TABLES), CHUNK_ROWS);
  try {
    await report({ kind: 'step', message: `usage hours' rows made on ${thread.threaded ? 'a worker thread' : "the replay's thread (no compiled worker)"}` });
    const writer = new DrainedWriter(loader, thread);
    const { memory, outcome } = await replayIntoMemory(log, plan, report, writer);
    const writing = performance.now();
    await writer.finish(memory);
    // Their indexes (usage hours: the biggest) are built while the other tables are written: a
    // connection starts on them before this thread formats the other tables.
    loader.complete([...writer.tables]);
    await new Promise((resolve) => setImmediate(resolve));
    await loader.write(memory.tables());
    await loader.finish(memory.sequences(), report);
    const late = await inTransaction(pool, async (client) => {
      await client.query(`SET LOCAL search_path = ${quoteIdent(NEXT_SCHEMA)}, public`);
      return memory.settle(client);
    });
    if (late > 0) await report({ kind: 'step', message: `${late} event(s) came after their hour was written: applied through the projections' SQL` });
    return { outcome, rowsWritten: loader.rowsWritten, writeSeconds: (performance.now() - writing) / 1000 };
  } catch (error) {
    await loader.abandon();
    throw error;
  } finally {
    await thread.stop();
  }
}

async function withWriter<T>(pool: Pool, work: (writer: PoolClient) => Promise<T>): Promise<T> {
  const writer = await pool.connect();
  try {
    return await work(writer);
  } finally {
    writer.release();
  }
}
