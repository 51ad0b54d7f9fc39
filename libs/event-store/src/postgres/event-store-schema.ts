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
`;
