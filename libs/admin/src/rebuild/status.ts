import type { Pool, PoolClient } from 'pg';
import { comparePositions, EventStore, inTransaction, LogPosition, START } from '#event-store/index.js';
import { ALL_PROJECTIONS, MIGRATIONS, Projection } from '#projections/index.js';
import { READ_MODELS_SCHEMA } from '#placement/persistence/read-model-schema.js';
import { REBUILD_LOCK } from './rebuild.js';

interface LogStatus {
  readonly events: number;
  /** The newest committed event (global order), or null for an empty log. */
  readonly head: { readonly commit: string; readonly position: string } | null;
}

export interface ProjectionStatus {
  readonly name: string;
  /** inline: applied in the append's own transaction; async: by a projector following the log. */
  readonly mode: 'inline' | 'async';
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

/**
 * Read-only: what the log holds (through the event store port) and how far each projection has
 * applied it. The checkpoints are read before the head, so none is ever shown past it.
 */
export async function readStatus(
  pool: Pool, store: EventStore, mode: 'inline' | 'async' = 'inline', projections: readonly Projection[] = ALL_PROJECTIONS,
): Promise<Status> {
  const models = await readModelsStatus(pool, projections);
  const head = await store.head();
  const events = await store.countEvents(START, head);
  const log: LogStatus = { events, head: events === 0 ? null : { commit: head.commit.toString(), position: head.prepare.toString() } };
  // Projections mostly stand at one checkpoint: each distinct one is counted once (a read of the
  // log's tail where the store keeps no count).
  const lags = new Map<string, Promise<number>>();
  const lagOf = (at: LogPosition | null) => {
    if (at === null) return events;
    if (comparePositions(at, head) >= 0) return 0;
    const key = `${at.commit}/${at.prepare}`;
    if (!lags.has(key)) lags.set(key, store.countEvents(at, head));
    return lags.get(key)!;
  };
  const rows = await Promise.all(projections.map(async (projection) => {
    const row = models.checkpoints.get(projection.name);
    const at = row && row.commit !== '0' ? { commit: BigInt(row.commit), prepare: BigInt(row.position) } : null;
    return { projection, row, at, lag: row ? await lagOf(at) : events };
  }));
  const { checkpoints: _, ...rest } = models;
  return {
    log,
    ...rest,
    projections: models.schemaReady ? rows.map(({ projection, row, at, lag }) => ({
      name: projection.name,
      mode,
      checkpoint: at && { commit: row.commit, position: row.position },
      lag,
      updatedAt: row?.updated_at ?? null,
      rebuiltAt: row?.rebuilt_at ?? null,
      rebuiltEvents: row?.rebuilt_events === null || row?.rebuilt_events === undefined ? null : Number(row.rebuilt_events),
      rebuildSeconds: row?.rebuild_seconds ?? null,
    })) : [],
  };
}

/** The read models' side, in one snapshot of them. */
function readModelsStatus(pool: Pool, projections: readonly Projection[]) {
  return inTransaction(pool, (client) => readModelsIn(client, projections), 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
}

async function readModelsIn(pool: PoolClient, projections: readonly Projection[]) {
  const schemas = (await pool.query<{ nspname: string }>(
    `SELECT nspname FROM pg_namespace WHERE nspname = $1 OR nspname LIKE 'read\\_models\\_%' ORDER BY 1`, [READ_MODELS_SCHEMA])).rows.map((r) => r.nspname);
  const rebuildRunning: boolean = (await pool.query(
    `SELECT EXISTS (SELECT 1 FROM pg_locks l, (SELECT ${REBUILD_LOCK}::bigint AS k) h
       WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND l.classid::bigint = ((h.k >> 32) & 4294967295) AND l.objid::bigint = (h.k & 4294967295)) AS running`)).rows[0].running;
  const leftovers = schemas.filter((name) => name !== READ_MODELS_SCHEMA);
  const schemaReady = schemas.includes(READ_MODELS_SCHEMA) && await hasTable(pool, 'rm_projection_checkpoints');
  if (!schemaReady) {
    return { schemaReady, pendingMigrations: MIGRATIONS.map((m) => m.name), rebuildRunning, leftovers, checkpoints: new Map<string, any>() };
  }
  const applied = new Set((await pool.query<{ name: string }>(`SELECT name FROM ${READ_MODELS_SCHEMA}.rm_migrations`)).rows.map((r) => r.name));
  const { rows } = await pool.query(
    `SELECT c.projection, c.commit_xid::text AS commit, c.position::text AS position, c.updated_at, c.rebuilt_at,
            c.rebuilt_events, c.rebuild_seconds
     FROM ${READ_MODELS_SCHEMA}.rm_projection_checkpoints c WHERE c.projection = ANY($1::text[])`,
    [projections.map((p) => p.name)]);
  return {
    schemaReady,
    pendingMigrations: MIGRATIONS.map((m) => m.name).filter((name) => !applied.has(name)),
    rebuildRunning,
    leftovers,
    checkpoints: new Map<string, any>(rows.map((row) => [row.projection as string, row])),
  };
}

async function hasTable(pool: PoolClient, table: string): Promise<boolean> {
  const { rows } = await pool.query('SELECT to_regclass($1) IS NOT NULL AS found', [`${READ_MODELS_SCHEMA}.${table}`]);
  return rows[0].found;
}
