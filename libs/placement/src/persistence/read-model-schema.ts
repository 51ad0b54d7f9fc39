import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { EVENT_STORE_SCHEMA } from '#event-store/index.js';
import { MIGRATIONS } from '#projections/index.js';
// Named in the projection runtime, which connects to the read models on its own.
import { READ_MODELS_SCHEMA, searchPathOption } from '#projections/runner/read-model-schema-name.js';

export { READ_MODELS_SCHEMA, searchPathOption };

/** How long the pool waits for a new connection before the request fails as "database unavailable". */
const CONNECT_TIMEOUT_MS = 10_000;

/** oslo.db's connection_recycle_time default: how long upstream's pool keeps a connection. */
const DEFAULT_CONNECTION_RECYCLE_SECONDS = 3600;

export interface PoolConnections {
  /** The connections' class, when an app wants to watch them (statement counts). */
  readonly client?: typeof Client;
  /** Age in seconds after which a connection is closed once idle, and replaced when needed. */
  readonly recycleSeconds?: number;
}

/** A data source whose migrations (and their rm_migrations table) live in `schema`. */
export function readModelDataSource(url: string, schema: string, poolSize: number, connections: PoolConnections = {}): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    schema,
    migrations: MIGRATIONS,
    migrationsTableName: 'rm_migrations',
    // A connection that cannot be made in 10 s fails (a 503) instead of holding its request for
    // good; keep-alive lets a dead peer's socket be noticed rather than waited on.
    extra: {
      max: poolSize, options: searchPathOption(schema), connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, onConnect: handleConnectionLoss,
      // Kept while idle, as upstream's pool keeps them, and replaced by age: pg-pool's default
      // closed a connection idle for 10 s, so a burst after a quiet spell (a boot storm) began on
      // new backends, paying their start, their statements' preparing and the code's warming again.
      idleTimeoutMillis: 0,
      maxLifetimeSeconds: connections.recycleSeconds ?? DEFAULT_CONNECTION_RECYCLE_SECONDS,
      ...(connections.client ? { Client: connections.client } : {}),
    },
  });
}

/**
 * pg-pool listens for 'error' only on idle clients: a connection that dies while checked out (an
 * append's transaction when the primary is killed) would emit an unhandled 'error' and end the
 * process. The loss still reaches the caller (the query in flight rejects, the next one finds the
 * client not queryable) and release() then drops the client, so the listener need do nothing.
 */
export function handleConnectionLoss(client: { on(event: 'error', listener: () => void): unknown }): void {
  client.on('error', () => undefined);
}

/** Held while the schemas change: by a starting server and by a rebuild's swap. */
export const SCHEMA_LOCK = "hashtext('placement: read models schema')";

/**
 * Creates the log's tables in public and the read models' schema, then runs `work` (the
 * migrations) under the same lock, so servers starting together take turns rather than race
 * to create the same tables. A database written before the read models had their own schema
 * keeps them in public: they are moved once. Runs on a connection with the default
 * search_path, since the log's CREATE TABLE IF NOT EXISTS would otherwise create a second log
 * in read_models.
 */
export async function underSchemaLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, options: '-c search_path=public' });
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${SCHEMA_LOCK})`);
    await client.query(EVENT_STORE_SCHEMA);
    await client.query(MOVE_LEGACY_READ_MODELS);
    return await work();
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${SCHEMA_LOCK})`).catch(() => undefined);
    await client.end();
  }
}

const MOVE_LEGACY_READ_MODELS = `
DO $$
DECLARE r record;
BEGIN
  CREATE SCHEMA IF NOT EXISTS ${READ_MODELS_SCHEMA};
  IF EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = '${READ_MODELS_SCHEMA}' AND tablename = 'rm_migrations') THEN
    RETURN;
  END IF;
  -- A sequence owned by a column moves with its table; moving it alone is refused.
  FOR r IN
    SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relname LIKE 'rm\\_%' AND c.relkind IN ('r', 'p', 'S', 'v', 'm')
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))
  LOOP
    EXECUTE format('ALTER %s public.%I SET SCHEMA ${READ_MODELS_SCHEMA}',
      CASE r.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END, r.relname);
  END LOOP;
END $$;
`;
