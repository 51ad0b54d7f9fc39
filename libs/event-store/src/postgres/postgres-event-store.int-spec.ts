import { isDeepStrictEqual, inspect } from 'node:util';
import { Pool } from 'pg';
import { createTestDatabase } from '#test/support/database.js';
import { describeEventStoreContract } from '../contract/event-store.contract.js';
import { PostgresEventStore } from './postgres-event-store.js';

// Every append goes through es_append; the two modes differ in what comes back and in batching.
// Without an inline projector (async projections, the admin's bulk paths) each append is alone
// and only its last position comes back.
describeEventStoreContract('PostgreSQL without an inline projector', async () => {
  const db = await createTestDatabase('pl_es');
  const pool = new Pool({ connectionString: db.url, max: 12 });
  const store = new PostgresEventStore(pool, { pollIntervalMs: 10 });
  await store.ensureSchema();
  return { store, close: async () => { await pool.end(); await db.drop(); } };
});

// With an inline projector, appends that arrive together share a transaction (append-batches.ts),
// and the projector sees exactly the events written, in order.
describeEventStoreContract('PostgreSQL with an inline projector (appends batched)', async () => {
  const db = await createTestDatabase('pl_es');
  const pool = new Pool({ connectionString: db.url, max: 12 });
  const store = new PostgresEventStore(pool, { pollIntervalMs: 10 });
  await store.ensureSchema();
  store.addInlineProjector(async (tx, events) => {
    // What the projector is handed must be what a read of the log gives: the store sends back
    // only what it assigns and takes the rest from the request, so each field is compared.
    const { rows } = await tx.query<Record<string, unknown>>(
      'SELECT transaction_id, position, stream_id, revision, type, data, metadata, recorded_at FROM es_events WHERE position = ANY($1::bigint[]) ORDER BY position',
      [events.map((event) => event.position.prepare.toString())]);
    if (rows.length !== events.length) throw new Error('the projector was handed events that are not in the log');
    rows.forEach((row, i) => {
      const e = events[i];
      const logged = { stream: row.stream_id, revision: Number(row.revision), commit: BigInt(row.transaction_id as string), type: row.type,
        data: row.data, metadata: row.metadata, at: (row.recorded_at as Date).getTime() };
      const handed = { stream: e.stream, revision: e.revision, commit: e.position.commit, type: e.type, data: e.data, metadata: e.metadata, at: e.recordedAt.getTime() };
      if (!isDeepStrictEqual(logged, handed)) throw new Error(`the projector was handed ${inspect(handed)} for ${inspect(logged)}`);
    });
  });
  return { store, close: async () => { await pool.end(); await db.drop(); } };
});
