import { INDEXED_LOOKUPS } from '../indexed-lookups.js';
import { BELOW_IN_FLIGHT } from './read-horizon.js';
import { readColumnsWithMetadata } from './rows.js';

/**
 * Each of INDEXED_LOOKUPS (indexed-lookups.ts) gets a partial GIN index over its one field,
 * holding only the events of its types: `@>` on it finds a string there and a string in an array
 * there alike (jsonb containment lets an array contain a scalar at its top).
 */
export const lookupIndexName = (name: string) => `es_events_${name}_lookup`;

/** A string as an SQL literal (standard_conforming_strings, PostgreSQL's default since 9.1). */
export const sqlLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** "The event's type is one of these", spelled alike in an index's predicate and a lookup's statement, so the planner can match them. */
export const typeCondition = (types: readonly string[]) =>
  types.length === 1 ? `type = ${sqlLiteral(types[0])}` : `type IN (${types.map(sqlLiteral).join(', ')})`;

// Created at start-up on an existing log too (IF NOT EXISTS): building one reads es_events once
// and holds appends back meanwhile (docs/administration.md, "Upgrading").
const LOOKUP_INDEXES = INDEXED_LOOKUPS.map(({ name, types, field }) =>
  `CREATE INDEX IF NOT EXISTS ${lookupIndexName(name)} ON es_events USING gin ((data->${sqlLiteral(field)}) jsonb_path_ops) WHERE ${typeCondition(types)};`).join('\n');

/**
 * An append function under the previous build's six arguments, delegating with no fence token and
 * the transaction's time: a server of that build may still call it during an upgrade.
 */
const previousSignature = (name: string) => `CREATE OR REPLACE FUNCTION ${name}(streams text[], expected bigint[], counts int[], types text[], datas jsonb[], metadatas jsonb[])
RETURNS SETOF es_events LANGUAGE plpgsql AS $${name}$
BEGIN
  RETURN QUERY SELECT * FROM ${name}(NULL::bigint, now(), streams, expected, counts, types, datas, metadatas);
END
$${name}$;`;

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
-- A restore's scope and usage by project as of a moment (streamsWith): see INDEXED_LOOKUPS.
${LOOKUP_INDEXES}
-- The tokens of transactions settled as not committed after their COMMIT's answer was lost (es_settle).
CREATE TABLE IF NOT EXISTS es_fences (
  token bigint PRIMARY KEY,
  fenced_at timestamptz NOT NULL DEFAULT now()
);
-- One append in one round trip, and the log's only compare-and-set: each stream's expected
-- revision checked and its head moved, then the events inserted, each numbered from its stream's
-- head. Streams are checked and locked in code-point order ("C" collation), whatever order they
-- come in, so concurrent appends lock in one order; the events are recorded in the order given,
-- so the log keeps the caller's order within an append (a parent created before its child). A
-- stream not at the expected revision raises ES409 naming it, and the caller's transaction is
-- rolled back. A stream sent with no events is still checked and locked ('any' creates it at
-- -1); the caller reads its head from es_streams in the same transaction.
-- expected: a revision, -1 (the stream must not exist), -2 (any). recorded: the events' time,
-- chosen by the appending server before its transaction (recording-time.ts). fence: the
-- transaction's token, held while it runs, with which es_settle learns the outcome of a COMMIT
-- whose answer was lost; a transaction whose token was settled as not committed fails here.
CREATE OR REPLACE FUNCTION es_append(fence bigint, recorded timestamptz, streams text[], expected bigint[], counts int[], types text[], datas jsonb[], metadatas jsonb[])
RETURNS SETOF es_events LANGUAGE plpgsql AS $es_append$
DECLARE
  head bigint;
  n int := coalesce(array_length(streams, 1), 0);
  made text[];
  taken text;
  heads bigint[] := array_fill(NULL::bigint, ARRAY[n]);
  i int;
  stream_ids text[] := '{}';
  revisions bigint[] := '{}';
BEGIN
  IF fence IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock((fence >> 31)::int, (fence & 2147483647)::int);
    IF EXISTS (SELECT 1 FROM es_fences WHERE token = fence) THEN
      RAISE EXCEPTION 'append fenced: its outcome was settled as not committed' USING ERRCODE = 'ES410';
    END IF;
  END IF;
  IF n > 1 AND -1 = ALL(expected) THEN
    -- Only new streams (an import writes thousands per append): one statement, not one each,
    -- inserting the rows (and so taking their locks) in code-point order.
    WITH inserted AS (
      INSERT INTO es_streams (stream_id, revision)
        SELECT u.s, u.c - 1 FROM unnest(streams, counts) AS u(s, c) ORDER BY u.s COLLATE "C"
        ON CONFLICT (stream_id) DO NOTHING RETURNING stream_id)
    SELECT array_agg(stream_id) INTO made FROM inserted;
    IF coalesce(array_length(made, 1), 0) < n THEN
      -- The first stream not made here: one that existed, or a second mention of one.
      SELECT m.s INTO taken FROM (
        SELECT u.s, u.i, row_number() OVER (PARTITION BY u.s ORDER BY u.i) AS mention FROM unnest(streams) WITH ORDINALITY AS u(s, i)) AS m
        WHERE m.mention > 1 OR m.s NOT IN (SELECT unnest(made)) ORDER BY m.i LIMIT 1;
      RAISE EXCEPTION 'wrong expected revision' USING ERRCODE = 'ES409', DETAIL = taken;
    END IF;
    SELECT coalesce(array_agg(u.s ORDER BY u.i, g.r), '{}'), coalesce(array_agg(g.r::bigint ORDER BY u.i, g.r), '{}') INTO stream_ids, revisions
      FROM unnest(streams, counts) WITH ORDINALITY AS u(s, c, i) CROSS JOIN LATERAL generate_series(0, u.c - 1) AS g(r);
  ELSE
    FOR i IN SELECT u.i FROM unnest(streams) WITH ORDINALITY AS u(s, i) ORDER BY u.s COLLATE "C", u.i LOOP
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
      heads[i] := head;
    END LOOP;
    -- Simple expressions only: plpgsql evaluates them without starting an executor, which a
    -- subquery here did once per stream of every claim.
    FOR i IN 1 .. n LOOP
      FOR k IN 1 .. counts[i] LOOP
        stream_ids := stream_ids || streams[i];
        revisions := revisions || (heads[i] - counts[i] + k);
      END LOOP;
    END LOOP;
  END IF;
  RETURN QUERY WITH inserted AS (
    INSERT INTO es_events (stream_id, revision, type, data, metadata, recorded_at)
    SELECT u.*, recorded FROM unnest(stream_ids, revisions, types, datas, metadatas) AS u
    RETURNING *)
  SELECT * FROM inserted ORDER BY position;
END
$es_append$;
-- The previous build's signature, which a server of that build may still call during an upgrade:
-- no fence, and the transaction's time. Its streams came already sorted, so it gets what it got.
${previousSignature('es_append')}
-- Whether the transaction holding a fence committed the event named, asked on another connection
-- once its COMMIT's answer was lost (commit-outcome.ts). It waits, at most wait_ms, for that
-- transaction to end (a commit waiting for its standby holds it), then fences the token, so a
-- message still on its way fails in es_append instead of committing after the answer. The
-- answer, the marked event or none, is then final. Fences older than a day are let go: no message is that late.
CREATE OR REPLACE FUNCTION es_settle(fence bigint, stream text, rev bigint, meta jsonb, wait_ms int)
RETURNS SETOF es_events LANGUAGE plpgsql AS $es_settle$
BEGIN
  PERFORM set_config('lock_timeout', greatest(wait_ms, 1) || 'ms', true);
  PERFORM pg_advisory_xact_lock((fence >> 31)::int, (fence & 2147483647)::int);
  INSERT INTO es_fences (token) VALUES (fence) ON CONFLICT (token) DO NOTHING;
  DELETE FROM es_fences WHERE fenced_at < now() - interval '1 day';
  RETURN QUERY SELECT * FROM es_events WHERE stream_id = stream AND revision = rev AND metadata = meta;
END
$es_settle$;
-- es_append inside a transaction that carries other appends (append-batches.ts): a stream not at
-- the expected revision undoes this append alone (the block is a subtransaction) and answers one
-- row naming the stream, with a NULL position, instead of failing the whole transaction.
CREATE OR REPLACE FUNCTION es_append_or_conflict(fence bigint, recorded timestamptz, streams text[], expected bigint[], counts int[], types text[], datas jsonb[], metadatas jsonb[])
RETURNS SETOF es_events LANGUAGE plpgsql AS $es_append_or_conflict$
DECLARE
  failed text;
BEGIN
  RETURN QUERY SELECT * FROM es_append(fence, recorded, streams, expected, counts, types, datas, metadatas);
EXCEPTION WHEN SQLSTATE 'ES409' THEN
  GET STACKED DIAGNOSTICS failed = PG_EXCEPTION_DETAIL;
  RETURN QUERY SELECT NULL::bigint, NULL::xid8, failed, NULL::bigint, NULL::text, NULL::jsonb, NULL::jsonb, NULL::timestamptz;
END
$es_append_or_conflict$;
-- The previous build's signature (see es_append's).
${previousSignature('es_append_or_conflict')}
-- The log's head and the readable events after a position up to it, in one snapshot (the
-- caller's: the function is STABLE), for readToHead (log-reads.ts): the candidate index's read
-- before every query. A function so that its statement is planned once per connection. As a
-- prepared statement it was planned again on every call once the log was large: the planner,
-- given the position, sees a short tail, and costs the plan for any position (the same ordered
-- scan of the global order's index, LIMIT rows at most) far higher; the planning then cost
-- several times the reading. A NULL only_types reads every type.
CREATE OR REPLACE FUNCTION es_read_to_head(from_commit xid8, from_prepare bigint, max_events int, only_types text[], with_metadata boolean)
RETURNS TABLE (head_commit text, head_prepare text, event_commit text, event_prepare text, event_stream text, event_revision bigint,
  event_type text, event_data jsonb, event_metadata jsonb, event_micros text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $es_read_to_head$
BEGIN
  RETURN QUERY WITH head AS (
      SELECT h.transaction_id AS head_c, h.position AS head_p FROM es_events AS h
      ORDER BY h.transaction_id DESC, h.position DESC LIMIT 1),
    horizon AS (SELECT ${BELOW_IN_FLIGHT} AS below FROM pg_current_snapshot() AS s)
  SELECT head.head_c::text, head.head_p::text, e.* FROM head LEFT JOIN LATERAL (
    SELECT ${readColumnsWithMetadata('CASE WHEN with_metadata THEN metadata END')}
    FROM es_events, horizon
    WHERE transaction_id < horizon.below
      AND (transaction_id, position) > (from_commit, from_prepare)
      AND (transaction_id, position) <= (head.head_c, head.head_p)
      AND (only_types IS NULL OR type = ANY(only_types))
    ORDER BY es_events.transaction_id, es_events.position LIMIT max_events) AS e ON true;
END
$es_read_to_head$;
`;
