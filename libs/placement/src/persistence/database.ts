import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { EventStore, jsonbForm, PostgresEventStore } from '#event-store/index.js';
import { ALL_PROJECTIONS, inlineProjector } from '#projections/index.js';
import { seedStandardNames } from './standard-names.seed.js';
import { PoolConnections, READ_MODELS_SCHEMA, readModelDataSource, underSchemaLock } from './read-model-schema.js';
import { seedProjectionCheckpoints } from '#projections/runner/checkpoints.js';

export interface Database {
  readonly dataSource: DataSource;
  readonly pool: Pool;
  /** The log the handlers append to: PostgreSQL's own, or KurrentDB's adapter (bootstrap.ts). */
  readonly eventStore: EventStore;
  /** Event data as a read of that log gives it back (jsonb's key order here; JSON's for KurrentDB). */
  readonly storedForm: (data: unknown) => unknown;
  close(): Promise<void>;
}

/**
 * Opens the database: the log's tables, the read models' migrations (TypeORM) in their own
 * schema, the built-in names, and an event store whose appends run the projections in the
 * same transaction. The pool's search_path finds rm_* in read_models and es_* in public.
 * `connections`: their class, for an app that watches them, and their recycling age.
 */
export async function openDatabase(
  url: string, poolSize = 10, projections: 'inline' | 'async' = 'inline', connections: PoolConnections = {},
): Promise<Database> {
  const dataSource = readModelDataSource(url, READ_MODELS_SCHEMA, poolSize, connections);
  const pool = await underSchemaLock(url, async () => {
    await dataSource.initialize();
    const master = (dataSource.driver as unknown as { master: Pool }).master;
    await dataSource.runMigrations({ transaction: 'all' });
    await seedStandardNames(master);
    await seedProjectionCheckpoints(master, ALL_PROJECTIONS);
    return master;
  });
  const eventStore = new PostgresEventStore(pool);
  // async: a projector (projections/runner/async) applies the same projections from the log.
  if (projections === 'inline') eventStore.addInlineProjector(inlineProjector(ALL_PROJECTIONS));
  return { dataSource, pool, eventStore, storedForm: jsonbForm, close: () => dataSource.destroy() };
}
