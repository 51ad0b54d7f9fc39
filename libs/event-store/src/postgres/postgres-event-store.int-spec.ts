import { isDeepStrictEqual, inspect } from 'node:util';
import { Pool } from 'pg';
import { createTestDatabase } from '#test/support/database.js';
import { describeEventStoreContract } from '../contract/event-store.contract.js';
import { PostgresEventStore } from './postgres-event-store.js';
import { THIS_TRANSACTION } from './sql-client.js';

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
  store.addInlineProjector(async (tx, events, through) => {
    // What the projector is handed must be what a read of the log gives: the store takes the
    // events from the request and its time, and what it assigns from es_append's answer, or
    // names it in SQL where the events are projected before they are written, so each field is
    // compared, and so is the position the checkpoints move to.
    const { rows } = await tx.query<Record<string, unknown>>(
      `SELECT transaction_id::text, position::text, stream_id, revision, type, data, metadata, (extract(epoch FROM recorded_at) * 1000000)::int8::text AS micros,
         transaction_id = pg_current_xact_id() AS ours
       FROM es_events WHERE (stream_id, revision) IN (SELECT * FROM unnest($1::text[], $2::bigint[])) ORDER BY es_events.position`,
      [events.map((event) => event.stream), events.map((event) => event.revision)]);
    if (rows.length !== events.length || !rows.every((row) => row.ours)) throw new Error('the projector was handed events this transaction did not write');
    rows.forEach((row, i) => {
      const e = events[i];
      const logged = { stream: row.stream_id, revision: Number(row.revision), type: row.type, data: row.data, metadata: row.metadata, micros: BigInt(row.micros as string) };
      const handed = { stream: e.stream, revision: e.revision, type: e.type, data: e.data, metadata: e.metadata, micros: e.recordedAtMicros };
      if (!isDeepStrictEqual(logged, handed)) throw new Error(`the projector was handed ${inspect(handed)} for ${inspect(logged)}`);
    });
    const last = rows.at(-1);
    if (!last) return;
    const [{ commit, position }] = (await tx.query<{ commit: string; position: string }>(
      "SELECT pg_current_xact_id()::text AS commit, currval('es_events_position_seq')::text AS position")).rows;
    const expected = through === THIS_TRANSACTION ? { commit, position } : { commit: through.commit.toString(), position: through.prepare.toString() };
    if (!isDeepStrictEqual(expected, { commit: last.transaction_id, position: last.position })) {
      throw new Error(`the projector was told the events end at ${inspect(expected)}, not at ${inspect(last)}`);
    }
  });
  return { store, close: async () => { await pool.end(); await db.drop(); } };
});
