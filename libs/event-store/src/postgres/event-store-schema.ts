/** The log's own tables; created on start, independent of the read models' migrations. */
export const EVENT_STORE_SCHEMA = `
CREATE TABLE IF NOT EXISTS es_streams (
  stream_id text PRIMARY KEY,
  revision bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS es_events (
  position bigserial PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id text NOT NULL,
  revision bigint NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_id, revision)
);
CREATE INDEX IF NOT EXISTS es_events_global_order ON es_events (transaction_id, position);
-- The audit trail's "what did request X write" (GET /ledger/audit/request/{id}).
CREATE INDEX IF NOT EXISTS es_events_request_id ON es_events ((metadata->>'requestId'));
-- One append in one round trip: each stream's expected revision checked and its head moved, in
-- the order given (callers sort the streams, so concurrent appends lock in one order), then the
-- events inserted, each numbered from its stream's head. A stream not at the expected revision
-- raises ES409 naming it, and the caller's transaction is rolled back.
-- expected: a revision, -1 (the stream must not exist), -2 (any).
CREATE OR REPLACE FUNCTION es_append(streams text[], expected bigint[], counts int[], types text[], datas jsonb[], metadatas jsonb[])
RETURNS SETOF es_events LANGUAGE plpgsql AS $es_append$
DECLARE
  head bigint;
  stream_ids text[] := '{}';
  revisions bigint[] := '{}';
BEGIN
  FOR i IN 1 .. coalesce(array_length(streams, 1), 0) LOOP
    IF expected[i] = -2 THEN
      INSERT INTO es_streams AS s (stream_id, revision) VALUES (streams[i], counts[i] - 1)
        ON CONFLICT (stream_id) DO UPDATE SET revision = s.revision + counts[i] RETURNING s.revision INTO head;
    ELSIF expected[i] = -1 THEN
      INSERT INTO es_streams (stream_id, revision) VALUES (streams[i], counts[i] - 1) ON CONFLICT (stream_id) DO NOTHING;
      IF NOT FOUND THEN RAISE EXCEPTION 'wrong expected revision' USING ERRCODE = 'ES409', DETAIL = streams[i]; END IF;
      head := counts[i] - 1;
    ELSE
      UPDATE es_streams SET revision = expected[i] + counts[i] WHERE stream_id = streams[i] AND revision = expected[i];
      IF NOT FOUND THEN RAISE EXCEPTION 'wrong expected revision' USING ERRCODE = 'ES409', DETAIL = streams[i]; END IF;
      head := expected[i] + counts[i];
    END IF;
    stream_ids := stream_ids || array_fill(streams[i], ARRAY[counts[i]]);
    revisions := revisions || ARRAY(SELECT generate_series(head - counts[i] + 1, head));
  END LOOP;
  RETURN QUERY WITH inserted AS (
    INSERT INTO es_events (stream_id, revision, type, data, metadata)
    SELECT * FROM unnest(stream_ids, revisions, types, datas, metadatas)
    RETURNING *)
  SELECT * FROM inserted ORDER BY position;
END
$es_append$;
-- es_append inside a transaction that carries other appends (append-batches.ts): a stream not at
-- the expected revision undoes this append alone (the block is a subtransaction) and answers one
-- row naming the stream, with a NULL position, instead of failing the whole transaction.
CREATE OR REPLACE FUNCTION es_append_or_conflict(streams text[], expected bigint[], counts int[], types text[], datas jsonb[], metadatas jsonb[])
RETURNS SETOF es_events LANGUAGE plpgsql AS $es_append_or_conflict$
DECLARE
  failed text;
BEGIN
  RETURN QUERY SELECT * FROM es_append(streams, expected, counts, types, datas, metadatas);
EXCEPTION WHEN SQLSTATE 'ES409' THEN
  GET STACKED DIAGNOSTICS failed = PG_EXCEPTION_DETAIL;
  RETURN QUERY SELECT NULL::bigint, NULL::xid8, failed, NULL::bigint, NULL::text, NULL::jsonb, NULL::jsonb, NULL::timestamptz;
END
$es_append_or_conflict$;
`;
