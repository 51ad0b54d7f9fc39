import { Pool } from 'pg';
import { createTestDatabase } from '#test/support/database.js';
import { describeEventStoreContract } from '../contract/event-store.contract.js';
import { PostgresEventStore } from './postgres-event-store.js';

describeEventStoreContract('PostgreSQL', async () => {
  const db = await createTestDatabase('pl_es');
  const pool = new Pool({ connectionString: db.url, max: 12 });
  const store = new PostgresEventStore(pool, { pollIntervalMs: 10 });
  await store.ensureSchema();
  return { store, close: async () => { await pool.end(); await db.drop(); } };
});

// With an inline projector the adapter appends through es_append (one round trip); the same
// contract holds there, and the projector sees exactly the events written, in order.
describeEventStoreContract('PostgreSQL with an inline projector (es_append)', async () => {
  const db = await createTestDatabase('pl_es');
  const pool = new Pool({ connectionString: db.url, max: 12 });
  const store = new PostgresEventStore(pool, { pollIntervalMs: 10 });
  await store.ensureSchema();
  store.addInlineProjector(async (tx, events) => {
    const { rows } = await tx.query<{ n: string }>('SELECT count(*) AS n FROM es_events WHERE position = ANY($1::bigint[])',
      [events.map((event) => event.position.prepare.toString())]);
    if (Number(rows[0].n) !== events.length) throw new Error('the projector was handed events that are not in the log');
  });
  return { store, close: async () => { await pool.end(); await db.drop(); } };
});
