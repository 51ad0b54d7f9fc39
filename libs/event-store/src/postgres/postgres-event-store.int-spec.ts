import { Pool } from 'pg';
import { createTestDatabase } from '../../../../test/support/database.js';
import { describeEventStoreContract } from '../contract/event-store.contract.js';
import { PostgresEventStore } from './postgres-event-store.js';

describeEventStoreContract('PostgreSQL', async () => {
  const db = await createTestDatabase('pl_es');
  const pool = new Pool({ connectionString: db.url, max: 12 });
  const store = new PostgresEventStore(pool, { pollIntervalMs: 10 });
  await store.ensureSchema();
  return { store, close: async () => { await pool.end(); await db.drop(); } };
});
