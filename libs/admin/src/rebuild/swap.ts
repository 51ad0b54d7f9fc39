import type { Pool, PoolClient } from 'pg';
import { AppendsBusy, comparePositions, EventStore, InlineProjector, inTransaction, LogPosition, readLogRange, RecordedEvent } from '#event-store/index.js';
import type { Projection } from '#projections/runner/projection.js';
import { READ_MODELS_SCHEMA, SCHEMA_LOCK } from '#placement/persistence/read-model-schema.js';
import { Reporter } from './admin-events.js';
import { applyWithSql } from './replay.js';
import { listRelations, qualified, quoteIdent, RETIRED_SCHEMA } from './schema/schema-admin.js';

/** Below this many new events a catch-up round is short enough to run with appends paused. */
const SMALL_ENOUGH = 500;
const MAX_ROUNDS = 5;
const LOCK_TIMEOUT = '2s';
const LOCK_ATTEMPTS = 10;
const LOCK_NOT_AVAILABLE = '55P03';

/** The log after `from` up to `until`, whole: a catch-up applies it in one transaction, its appends never split. */
async function eventsBetween(store: EventStore, from: LogPosition, until: LogPosition): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for await (const batch of readLogRange(store, from, until, 2_000)) events.push(...batch);
  return events;
}

/**
 * Applies what was appended since `from`, with appends running, until little is left: the
 * swap then holds appends back only for that little. Returns where the new tables stand.
 */
export async function catchUp(pool: Pool, store: EventStore, schema: string, from: LogPosition, projector: InlineProjector, report: Reporter) {
  const client = await pool.connect();
  let position = from;
  let total = 0;
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const started = performance.now();
      const head = await store.head();
      const found = await eventsBetween(store, position, head);
      await inTransaction(client, () => applyWithSql(client, schema, projector, found));
      if (comparePositions(head, position) > 0) position = head;
      total += found.length;
      await report({ kind: 'caught-up', events: found.length, locked: false, seconds: (performance.now() - started) / 1000 });
      if (found.length < SMALL_ENOUGH) break;
    }
    return { position, events: total };
  } finally {
    client.release();
  }
}

export interface RebuildStats {
  readonly events: number;
  readonly seconds: number;
}

/**
 * One short moment with the log standing still (holdAppends: where appends write the read
 * models inline, they wait) and an asynchronous projector's next batch waiting for the live
 * checkpoints: the last events are applied, the checkpoints set to the log's head and the
 * schemas renamed, in one transaction. Readers never wait: a query resolves its table names
 * when it starts, in whichever schema is read_models then. A lock that cannot be had quickly is
 * given up and tried again, so that appends never queue long behind it.
 */
export async function swapIn(
  pool: Pool, store: EventStore, schema: string, from: LogPosition, projector: InlineProjector, projections: readonly Projection[],
  stats: RebuildStats, report: Reporter,
): Promise<{ events: number; lockedMs: number }> {
  const client = await pool.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await store.holdAppends((head) => inTransaction(client, async () => {
          const locked = performance.now();
          await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
          // A server starting now would run migrations on the schema being renamed: it waits.
          await client.query(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`);
          await client.query(`LOCK TABLE ${qualified(READ_MODELS_SCHEMA, 'rm_projection_checkpoints')} IN EXCLUSIVE MODE`);
          const events = await eventsBetween(store, from, head);
          await applyWithSql(client, schema, projector, events);
          await setCheckpoints(client, schema, projections, head, stats);
          await refuseStrangers(client, schema);
          await client.query(`ALTER SCHEMA ${quoteIdent(READ_MODELS_SCHEMA)} RENAME TO ${quoteIdent(RETIRED_SCHEMA)}`);
          await client.query(`ALTER SCHEMA ${quoteIdent(schema)} RENAME TO ${quoteIdent(READ_MODELS_SCHEMA)}`);
          const lockedMs = performance.now() - locked;
          await report({ kind: 'caught-up', events: events.length, locked: true, seconds: lockedMs / 1000 });
          return { events: events.length, lockedMs };
        }));
      } catch (error) {
        const busy = error instanceof AppendsBusy || (error as { code?: string }).code === LOCK_NOT_AVAILABLE;
        if (!busy || attempt >= LOCK_ATTEMPTS) throw error;
        await report({ kind: 'step', message: `could not hold appends back (or lock the schema) within ${LOCK_TIMEOUT}; trying the swap again` });
      }
    }
  } finally {
    client.release();
  }
}

/**
 * Every event of the log up to `head` is in the new tables now: the checkpoints stand there. An
 * asynchronous projector that was behind it skips what they already hold; one ahead of it reads
 * again from them.
 */
async function setCheckpoints(client: PoolClient, schema: string, projections: readonly Projection[], head: LogPosition, stats: RebuildStats) {
  await client.query(
    `UPDATE ${qualified(schema, 'rm_projection_checkpoints')} SET commit_xid = $1::text::xid8, position = $2, updated_at = now(),
       rebuilt_at = now(), rebuilt_events = $3, rebuild_seconds = $4
     WHERE projection = ANY($5::text[])`,
    [head.commit.toString(), head.prepare.toString(), stats.events, stats.seconds, projections.map((projection) => projection.name)]);
}

/** Something in read_models that the migrations do not create would be lost by the swap: stop instead. */
export async function refuseStrangers(client: PoolClient | Pool, schema: string): Promise<void> {
  const known = new Set(await listRelations(client, schema));
  const strangers = (await listRelations(client, READ_MODELS_SCHEMA)).filter((name) => !known.has(name));
  if (strangers.length > 0) {
    throw new Error(`${READ_MODELS_SCHEMA} holds ${strangers.join(', ')}, which the migrations do not create; `
      + 'move it out of the read models\' schema before rebuilding');
  }
}
