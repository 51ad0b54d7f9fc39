import type { Pool, PoolClient } from 'pg';
import { countEvents, countEventsAfter, hasEventLog, readHeadIn } from '#event-store/index.js';
import { ALL_PROJECTIONS, MIGRATIONS, Projection } from '#projections/index.js';
import { READ_MODELS_SCHEMA } from '../persistence/read-model-schema.js';
import { REBUILD_LOCK } from './rebuild.js';

export interface LogStatus {
  readonly events: number;
  /** The newest committed event (global order), or null for an empty log. */
  readonly head: { readonly commit: string; readonly position: string } | null;
  /** Transactions below this id have all finished: readers in the global order see up to here. */
  readonly readableBelow: string;
}

export interface ProjectionStatus {
  readonly name: string;
  /** inline: applied in the append's own transaction. */
  readonly mode: 'inline';
  readonly checkpoint: { readonly commit: string; readonly position: string } | null;
  /** Committed events after the checkpoint. */
  readonly lag: number;
  readonly updatedAt: Date | null;
  readonly rebuiltAt: Date | null;
  readonly rebuiltEvents: number | null;
  readonly rebuildSeconds: number | null;
}

export interface Status {
  readonly log: LogStatus;
  readonly projections: readonly ProjectionStatus[];
  readonly schemaReady: boolean;
  readonly pendingMigrations: readonly string[];
  readonly rebuildRunning: boolean;
  /** Schemas an interrupted rebuild or verify left behind (the next rebuild drops its own). */
  readonly leftovers: readonly string[];
}

/** Read-only: what the log holds and how far each projection has applied it. */
export async function readStatus(pool: Pool, projections: readonly Projection[] = ALL_PROJECTIONS): Promise<Status> {
  // One snapshot for every read: a write committed between the head and the lag counts would
  // otherwise show a projection behind the head this same report prints.
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const status = await readStatusIn(client, projections);
    await client.query('COMMIT');
    return status;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function readStatusIn(pool: PoolClient, projections: readonly Projection[]): Promise<Status> {
  const { present, ...log } = await readLog(pool);
  const schemas = (await pool.query<{ nspname: string }>(
    `SELECT nspname FROM pg_namespace WHERE nspname = $1 OR nspname LIKE 'read\\_models\\_%' ORDER BY 1`, [READ_MODELS_SCHEMA])).rows.map((r) => r.nspname);
  const rebuildRunning = (await pool.query(
    `SELECT EXISTS (SELECT 1 FROM pg_locks l, (SELECT ${REBUILD_LOCK}::bigint AS k) h
       WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND l.classid::bigint = ((h.k >> 32) & 4294967295) AND l.objid::bigint = (h.k & 4294967295)) AS running`)).rows[0].running;
  const leftovers = schemas.filter((name) => name !== READ_MODELS_SCHEMA);
  const schemaReady = schemas.includes(READ_MODELS_SCHEMA) && await hasTable(pool, 'rm_projection_checkpoints');
  if (!schemaReady) {
    return { log, projections: [], schemaReady, pendingMigrations: MIGRATIONS.map((m) => m.name), rebuildRunning, leftovers };
  }
  const applied = new Set((await pool.query<{ name: string }>(`SELECT name FROM ${READ_MODELS_SCHEMA}.rm_migrations`)).rows.map((r) => r.name));
  const { rows } = await pool.query(
    `SELECT c.projection, c.commit_xid::text AS commit, c.position::text AS position, c.updated_at, c.rebuilt_at,
            c.rebuilt_events, c.rebuild_seconds
     FROM ${READ_MODELS_SCHEMA}.rm_projection_checkpoints c WHERE c.projection = ANY($1::text[])`,
    [projections.map((p) => p.name)]);
  const lags = present ? await countEventsAfter(pool, rows.map((row) => ({ commit: row.commit, position: row.position }))) : rows.map(() => 0);
  const byName = new Map(rows.map((row, i) => [row.projection as string, { ...row, lag: lags[i] }]));
  return {
    log,
    schemaReady,
    pendingMigrations: MIGRATIONS.map((m) => m.name).filter((name) => !applied.has(name)),
    rebuildRunning,
    leftovers,
    projections: projections.map((projection) => {
      const row = byName.get(projection.name);
      return {
        name: projection.name,
        mode: 'inline',
        checkpoint: row && row.commit !== '0' ? { commit: row.commit, position: row.position } : null,
        lag: row ? Number(row.lag) : log.events,
        updatedAt: row?.updated_at ?? null,
        rebuiltAt: row?.rebuilt_at ?? null,
        rebuiltEvents: row?.rebuilt_events === null || row?.rebuilt_events === undefined ? null : Number(row.rebuilt_events),
        rebuildSeconds: row?.rebuild_seconds ?? null,
      };
    }),
  };
}

async function readLog(pool: PoolClient): Promise<LogStatus & { present: boolean }> {
  const readable = (await pool.query('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS readable')).rows[0].readable;
  // A database no server has started on: no log yet, which is an answer, not an error.
  if (!(await hasEventLog(pool))) return { events: 0, head: null, readableBelow: readable, present: false };
  return { events: await countEvents(pool), head: await readHeadIn(pool), readableBelow: readable, present: true };
}

async function hasTable(pool: PoolClient, table: string): Promise<boolean> {
  const { rows } = await pool.query('SELECT to_regclass($1) IS NOT NULL AS found', [`${READ_MODELS_SCHEMA}.${table}`]);
  return rows[0].found;
}
