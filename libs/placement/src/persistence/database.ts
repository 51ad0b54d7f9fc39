import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { PostgresEventStore } from '../../../event-store/src/index.js';
import { ALL_PROJECTIONS, MIGRATIONS, inlineProjector } from '../../../../projections/index.js';
import { seedStandardNames } from './standard-names.seed.js';

export interface Database {
  readonly dataSource: DataSource;
  readonly pool: Pool;
  readonly eventStore: PostgresEventStore;
  close(): Promise<void>;
}

/**
 * Opens the database: the log's tables, the read models' migrations (TypeORM), the built-in
 * names, and an event store whose appends run the projections in the same transaction.
 */
export async function openDatabase(url: string, poolSize = 10): Promise<Database> {
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsTableName: 'rm_migrations',
    extra: { max: poolSize },
  });
  await dataSource.initialize();
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const eventStore = new PostgresEventStore(pool);
  await eventStore.ensureSchema();
  await dataSource.runMigrations({ transaction: 'all' });
  await seedStandardNames(pool);
  eventStore.addInlineProjector(inlineProjector(ALL_PROJECTIONS));
  return { dataSource, pool, eventStore, close: () => dataSource.destroy() };
}
