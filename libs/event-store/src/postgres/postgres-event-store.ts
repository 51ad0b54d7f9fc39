import type { Pool, PoolClient } from 'pg';
import {
  AppendRequest, AppendResult, EventStore, GlobalFilter, LogPosition, NO_STREAM, RecordedEvent, START, StreamRange, Subscription,
  WrongExpectedRevision,
} from '../port.js';
import { EVENT_STORE_SCHEMA } from './event-store-schema.js';
import { InlineProjector, SqlClient } from './sql-client.js';
import { BatchedSql } from './batched-sql.js';
import { statementName } from './prepared.js';
import { countEvents, filterConditions, readHead, readRequest, readStreamRange } from './log-reads.js';
import { holdAppends } from './hold-appends.js';
import { EVENT_COLUMNS, fromArrayRow, queryEvents, READ_COLUMNS, READ_COLUMNS_NO_METADATA, toRecordedEvent } from './rows.js';
import { outcomeInDoubt, resolveCommit, WrittenMark } from './commit-outcome.js';
import { AppendBatches, BatchOutcome } from './append-batches.js';

const DEADLOCK = '40P01';
const UNIQUE_VIOLATION = '23505';
/** Raised by es_append (event-store-schema.ts) when a stream is not at the expected revision. */
const WRONG_REVISION = 'ES409';
/** es_append's "any revision". */
const ANY_REVISION = -2;
/**
 * The global order's readable bound: only transactions older than every one of THIS database
 * still in flight are read, so a slow writer with a smaller transaction id can never be overtaken
 * and skipped. Other databases' transactions never write this log, so they must not hold its
 * readers back (a long one would stall every reader). The bound and the rows come from one
 * statement, hence one snapshot, but pg_stat_activity is read after that snapshot was taken: a
 * writer of this database still in flight for the snapshot may have committed by then and be
 * listed nowhere. So an in-flight transaction counts unless it is seen running in another
 * database; never the other way round.
 */
const HORIZON = `horizon AS (
  SELECT COALESCE(
    (SELECT min(x) FROM pg_snapshot_xip(s) AS x
      WHERE x::text::bigint % 4294967296 NOT IN (
        SELECT backend_xid::text::bigint FROM pg_stat_activity
        WHERE datname IS DISTINCT FROM current_database() AND backend_xid IS NOT NULL)),
    pg_snapshot_xmax(s)) AS below
  FROM pg_current_snapshot() AS s)`;

/**
 * Only what the store assigns comes back: the data and metadata are the appender's own, and
 * sending them back as text to be parsed again cost PostgreSQL and the server more than the
 * rest of the answer (the inline projections read them from the request instead).
 */
const ES_APPEND = `SELECT transaction_id, position, stream_id, revision, recorded_at
  FROM es_append($1::text[], $2::bigint[], $3::int[], $4::text[], $5::jsonb[], $6::jsonb[])`;
/** The same, for an append sharing its transaction with others: a moved stream answers one row with a NULL position. */
const ES_APPEND_OR_CONFLICT = ES_APPEND.replace('es_append(', 'es_append_or_conflict(');
/**
 * A shared transaction takes every lock on its streams first, in one order, as an append alone
 * does: a batch then never waits for a stream another process's transaction holds while holding
 * one that transaction waits for. That order is append()'s sort, by code point: "C" collation,
 * whatever the database's own (en_US orders 'trait-CUSTOM_A' and 'trait-CUSTOMB' the other way).
 */
const LOCK_STREAMS = 'SELECT 1 FROM es_streams WHERE stream_id = ANY($1::text[]) ORDER BY stream_id COLLATE "C" FOR NO KEY UPDATE';
/**
 * How long a shared transaction waits for a lock before it gives up and its appends are written
 * one by one. Its projections lock rows that are no stream's (a project's usage hours) in the
 * order of its appends, so two processes' batches can wait for each other; PostgreSQL would
 * break that after deadlock_timeout (1 s by default), far longer than an append takes.
 */
const BATCH_LOCK_TIMEOUT = '100ms';

export interface PostgresEventStoreOptions {
  readonly pollIntervalMs?: number;
}

export class PostgresEventStore implements EventStore {
  private projectors: InlineProjector[] = [];
  /** With inline projections, appends that arrive together share one transaction (append-batches.ts). */
  private batches: AppendBatches | null = null;

  constructor(private readonly pool: Pool, private readonly options: PostgresEventStoreOptions = {}) {}

  async ensureSchema(): Promise<void> {
    await this.pool.query(EVENT_STORE_SCHEMA);
  }

  /** Inline projections run in the append's transaction (read-your-writes without waiting). */
  addInlineProjector(projector: InlineProjector): void {
    this.projectors.push(projector);
    this.batches ??= new AppendBatches({ alone: (ordered) => this.appendAlone(ordered), together: (batch) => this.appendTogether(batch) });
  }

  append(requests: readonly AppendRequest[]): Promise<AppendResult> {
    // A fixed lock order keeps two multi-stream appends from deadlocking each other.
    const ordered = [...requests].sort((a, b) => (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0));
    return this.batches && throughEsAppend(ordered) ? this.batches.append(ordered) : this.appendAlone(ordered);
  }

  private async appendAlone(ordered: readonly AppendRequest[]): Promise<AppendResult> {
    const client = await this.pool.connect();
    let committing = false;
    let released = false;
    let position: LogPosition = { commit: 0n, prepare: 0n };
    let revisions: Record<string, number> = {};
    const closing: string[] = [];
    try {
      if (this.projectors.length > 0 && throughEsAppend(ordered)) {
        // The API's appends: BEGIN, checks, heads and events in one round trip (es_append), then
        // the projections, whose statements that need no answer ride with the next round trip.
        const tx = new BatchedSql(client);
        tx.defer('BEGIN');
        const recorded = recordedFrom(ordered, (await tx.query(ES_APPEND, esAppendParams(ordered))).rows);
        revisions = headsOf(ordered, recorded);
        for (const project of this.projectors) await project(tx, recorded);
        closing.push(...await tx.takeDeferred());
        position = recorded[recorded.length - 1]?.position ?? position;
      } else {
        await client.query('BEGIN');
        // Only new streams (an import writes thousands per append): one statement, not one each.
        // Mixed appends keep one statement per stream, so every append locks in the same sorted order.
        if (ordered.length > 1 && ordered.every((request) => request.expectedRevision === NO_STREAM)) {
          revisions = await this.createStreams(client, ordered);
        } else {
          for (const request of ordered) revisions[request.stream] = await this.advanceStream(client, request);
        }
        if (this.projectors.length > 0) {
          const recorded = await this.insertEvents(client, ordered, revisions);
          for (const project of this.projectors) await project(client, recorded);
          position = recorded[recorded.length - 1]?.position ?? position;
        } else {
          position = await this.insertEventsOnly(client, ordered, revisions);
        }
      }
      committing = true;
      // The projections' statements still held ride with the COMMIT: one round trip, and an error
      // in them aborts the transaction before the COMMIT runs.
      await client.query([...closing, 'COMMIT'].join(';\n'));
      return { position, revisions };
    } catch (error) {
      if (committing && position.commit > 0n && outcomeInDoubt(error)) {
        // The socket died with COMMIT sent: answering "failed" could deny a claim that holds.
        client.release(true);
        released = true;
        if (await resolveCommit(this.pool, markOf(ordered, { position, revisions }), error) === 'committed') return { position, revisions };
        throw error;
      }
      await client.query('ROLLBACK').catch(() => undefined);
      throw translate(error, ordered);
    } finally {
      if (!released) client.release();
    }
  }

  /**
   * Several appends in one transaction and one COMMIT, each as es_append_or_conflict: one whose
   * stream moved is refused and leaves no trace, the others are written with their projections.
   * Throws, having written nothing, when the transaction fails as a whole before its COMMIT.
   */
  private async appendTogether(batch: readonly (readonly AppendRequest[])[]): Promise<BatchOutcome[]> {
    const client = await this.pool.connect();
    let committing = false;
    let released = false;
    const outcomes: BatchOutcome[] = [];
    let mark: WrittenMark | undefined;
    try {
      const tx = new BatchedSql(client);
      tx.defer('BEGIN');
      tx.defer(`SET LOCAL lock_timeout = '${BATCH_LOCK_TIMEOUT}'`);
      tx.defer(LOCK_STREAMS, [[...new Set(batch.flatMap((ordered) => ordered.map((request) => request.stream)))]]);
      // Every append in one message: a batch costs the round trips of one append alone.
      const answers = await tx.queryEach(batch.map((ordered) => ({ text: ES_APPEND_OR_CONFLICT, params: esAppendParams(ordered) })));
      for (const [i, ordered] of batch.entries()) {
        const { rows } = answers[i];
        if (rows.length === 1 && rows[0].position === null) {
          outcomes.push({ refused: wrongRevision(rows[0].stream_id, ordered) });
          continue;
        }
        const recorded = recordedFrom(ordered, rows);
        for (const project of this.projectors) await project(tx, recorded);
        const written = { position: recorded.at(-1)?.position ?? START, revisions: headsOf(ordered, recorded) };
        outcomes.push({ written });
        if (recorded.length > 0) mark = markOf(ordered, written);
      }
      const closing = await tx.takeDeferred();
      committing = true;
      await client.query([...closing, 'COMMIT'].join(';\n'));
      return outcomes;
    } catch (error) {
      // No event to write (every append refused, or none had events): the outcomes stand,
      // whatever became of the COMMIT.
      if (committing && !mark) return outcomes;
      if (committing && mark && outcomeInDoubt(error)) {
        client.release(true);
        released = true;
        let committed: boolean;
        try {
          committed = await resolveCommit(this.pool, mark, error) === 'committed';
        } catch (unknown) {
          return outcomes.map((outcome) => ('written' in outcome ? { refused: unknown } : outcome));
        }
        if (committed) return outcomes;
      } else {
        await client.query('ROLLBACK').catch(() => undefined);
      }
      throw error;
    } finally {
      if (!released) client.release();
    }
  }

  /** Moves the stream's head, checking the expected revision in the same statement. */
  private async advanceStream(client: PoolClient, request: AppendRequest): Promise<number> {
    const count = request.events.length;
    const { stream, expectedRevision } = request;
    if (expectedRevision === 'any') {
      const { rows } = await client.query<{ revision: string }>(
        `INSERT INTO es_streams (stream_id, revision) VALUES ($1, $2 - 1)
         ON CONFLICT (stream_id) DO UPDATE SET revision = es_streams.revision + $2 RETURNING revision`,
        [stream, count],
      );
      return Number(rows[0].revision);
    }
    const next = expectedRevision + count;
    const result = expectedRevision === -1
      ? await client.query(
          'INSERT INTO es_streams (stream_id, revision) VALUES ($1, $2) ON CONFLICT (stream_id) DO NOTHING', [stream, next])
      : await client.query(
          'UPDATE es_streams SET revision = $2 WHERE stream_id = $1 AND revision = $3', [stream, next, expectedRevision]);
    if (result.rowCount !== 1) throw new WrongExpectedRevision(stream, expectedRevision);
    return next;
  }

  /** Creates streams that must not exist yet; rows go in the sorted order, so locks are taken in it too. */
  private async createStreams(client: PoolClient, requests: readonly AppendRequest[]): Promise<Record<string, number>> {
    const streams = requests.map((request) => request.stream);
    const heads = requests.map((request) => request.events.length - 1);
    const { rows } = await client.query<{ stream_id: string }>(
      `INSERT INTO es_streams (stream_id, revision) SELECT * FROM unnest($1::text[], $2::bigint[])
       ON CONFLICT (stream_id) DO NOTHING RETURNING stream_id`, [streams, heads]);
    if (rows.length !== requests.length) {
      const created = new Set(rows.map((row) => row.stream_id));
      throw new WrongExpectedRevision(streams.find((stream) => !created.has(stream))!, NO_STREAM);
    }
    return Object.fromEntries(streams.map((stream, i) => [stream, heads[i]]));
  }

  private async insertEvents(
    client: PoolClient, requests: readonly AppendRequest[], revisions: Record<string, number>,
  ): Promise<RecordedEvent[]> {
    const columns = eventColumns(requests, revisions);
    if (columns[0].length === 0) return [];
    const { rows } = await client.query(
      `INSERT INTO es_events (stream_id, revision, type, data, metadata)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::jsonb[], $5::jsonb[])
       RETURNING ${EVENT_COLUMNS}`,
      columns,
    );
    return rows.map(toRecordedEvent).sort((a, b) => (a.position.prepare < b.position.prepare ? -1 : 1));
  }

  /** With no projection to feed, only the last position comes back: no row is sent back and parsed again. */
  private async insertEventsOnly(
    client: PoolClient, requests: readonly AppendRequest[], revisions: Record<string, number>,
  ): Promise<LogPosition> {
    const columns = eventColumns(requests, revisions);
    if (columns[0].length === 0) return { commit: 0n, prepare: 0n };
    const { rows } = await client.query<{ position: string; transaction_id: string }>(
      `WITH inserted AS (
         INSERT INTO es_events (stream_id, revision, type, data, metadata)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::jsonb[], $5::jsonb[]) RETURNING position, transaction_id)
       SELECT position, transaction_id FROM inserted ORDER BY position DESC LIMIT 1`,
      columns,
    );
    return { commit: BigInt(rows[0].transaction_id), prepare: BigInt(rows[0].position) };
  }

  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    return queryEvents(this.pool, `SELECT ${READ_COLUMNS} FROM es_events WHERE stream_id = $1 AND revision >= $2 ORDER BY revision`, [stream, fromRevision]);
  }

  readStreamRange(stream: string, range: StreamRange): Promise<RecordedEvent[]> {
    return readStreamRange(this.pool, stream, range);
  }

  head(): Promise<LogPosition> {
    return readHead(this.pool);
  }

  readRequest(requestId: string): Promise<RecordedEvent[]> {
    return readRequest(this.pool, requestId);
  }

  countEvents(after: LogPosition, until?: LogPosition): Promise<number> {
    return countEvents(this.pool, after, until);
  }

  holdAppends<T>(work: (head: LogPosition) => Promise<T>): Promise<T> {
    return holdAppends(this.pool, work);
  }

  async readAll(from: LogPosition, limit: number, filter?: GlobalFilter): Promise<RecordedEvent[]> {
    const params: unknown[] = [from.commit.toString(), from.prepare.toString(), limit];
    const filtered = filterConditions(filter, params);
    return queryEvents(this.pool,
      `WITH ${HORIZON}
       SELECT ${filter?.metadata === false ? READ_COLUMNS_NO_METADATA : READ_COLUMNS}
       FROM es_events, horizon
       WHERE transaction_id < horizon.below
         AND (transaction_id, position) > ($1::text::xid8, $2::bigint)${filtered}
       ORDER BY es_events.transaction_id, es_events.position LIMIT $3`,
      params,
    );
  }

  /** One statement, so one snapshot: the head, and the readable events up to it beside it on each row. */
  async readToHead(from: LogPosition, limit: number, filter: Omit<GlobalFilter, 'until'> = {}): Promise<{ head: LogPosition; events: RecordedEvent[] }> {
    const params: unknown[] = [from.commit.toString(), from.prepare.toString(), limit];
    const filtered = filterConditions(filter, params);
    const text = `WITH head AS (
         SELECT transaction_id AS head_commit, position AS head_prepare FROM es_events
         ORDER BY transaction_id DESC, position DESC LIMIT 1),
       ${HORIZON}
       SELECT head_commit::text, head_prepare::text, e.* FROM head LEFT JOIN LATERAL (
         SELECT ${filter.metadata === false ? READ_COLUMNS_NO_METADATA : READ_COLUMNS}
         FROM es_events, horizon
         WHERE transaction_id < horizon.below
           AND (transaction_id, position) > ($1::text::xid8, $2::bigint)
           AND (transaction_id, position) <= (head.head_commit, head.head_prepare)${filtered}
         ORDER BY es_events.transaction_id, es_events.position LIMIT $3) e ON true`;
    const { rows } = await this.pool.query<unknown[]>({ name: statementName(text), text, values: params, rowMode: 'array' });
    if (rows.length === 0) return { head: START, events: [] };
    const head = { commit: BigInt(rows[0][0] as string), prepare: BigInt(rows[0][1] as string) };
    return { head, events: rows[0][2] === null ? [] : rows.map((row) => fromArrayRow(row.slice(2))) };
  }

  subscribe(from: LogPosition, handle: (events: RecordedEvent[]) => Promise<void>): Subscription {
    let position = from;
    let closed = false;
    const interval = this.options.pollIntervalMs ?? 50;
    const loop = (async () => {
      while (!closed) {
        const batch = await this.readAll(position, 500);
        if (batch.length > 0) {
          await handle(batch);
          position = batch[batch.length - 1].position;
          continue;
        }
        await new Promise((resolve) => setTimeout(resolve, interval));
      }
    })();
    return {
      close: async () => {
        closed = true;
        await loop;
      },
    };
  }
}

/** Whether es_append writes the append: all but an 'any' expectation without events, which only the long way answers. */
function throughEsAppend(ordered: readonly AppendRequest[]): boolean {
  return !ordered.some((request) => request.expectedRevision === 'any' && request.events.length === 0);
}

/** es_append's parameters: the streams in lock order, their expectations and event counts, then the events' columns. */
function esAppendParams(requests: readonly AppendRequest[]): unknown[] {
  const [, , types, data, meta] = eventColumns(requests, Object.fromEntries(requests.map((r) => [r.stream, r.events.length - 1])));
  return [requests.map((r) => r.stream), requests.map((r) => (r.expectedRevision === 'any' ? ANY_REVISION : r.expectedRevision)),
    requests.map((r) => r.events.length), types, data, meta];
}

/**
 * The events es_append recorded, each from its row (what the store assigned) and the request (the
 * rest). Rows come in the order of the events sent (positions are given in insertion order): the
 * requests' events flattened. Each is checked against its row, so a mismatch cannot pass unseen.
 */
function recordedFrom(requests: readonly AppendRequest[], rows: readonly Record<string, any>[]): RecordedEvent[] {
  const sent = requests.flatMap((request) => request.events.map((event) => ({ stream: request.stream, event })));
  if (sent.length !== rows.length) throw new Error(`es_append recorded ${rows.length} events of ${sent.length}`);
  return rows.map((row, i) => {
    const { stream, event } = sent[i];
    if (row.stream_id !== stream) throw new Error(`es_append recorded ${row.stream_id} where ${stream} was sent`);
    return toRecordedEvent({ ...row, type: event.type, data: event.data, metadata: event.metadata });
  });
}

/** The append's last event as resolveCommit recognises it in the log. */
function markOf(ordered: readonly AppendRequest[], { position, revisions }: AppendResult): WrittenMark {
  const last = ordered.filter((request) => request.events.length > 0).at(-1)!;
  return { stream: last.stream, revision: revisions[last.stream], transactionId: position.commit,
    metadata: JSON.stringify(last.events[last.events.length - 1]?.metadata ?? {}) };
}

function wrongRevision(stream: string, requests: readonly AppendRequest[]): WrongExpectedRevision {
  return new WrongExpectedRevision(stream, requests.find((request) => request.stream === stream)?.expectedRevision ?? 'any');
}

/** The INSERT's column arrays, each stream's events numbered from its revision before the append. */
function eventColumns(requests: readonly AppendRequest[], revisions: Record<string, number>): [string[], number[], string[], string[], string[]] {
  const streams: string[] = [], revs: number[] = [], types: string[] = [], data: string[] = [], meta: string[] = [];
  for (const request of requests) {
    let revision = revisions[request.stream] - request.events.length;
    for (const event of request.events) {
      streams.push(request.stream);
      revs.push(++revision);
      types.push(event.type);
      data.push(JSON.stringify(event.data));
      meta.push(JSON.stringify(event.metadata ?? {}));
    }
  }
  return [streams, revs, types, data, meta];
}

/** Each stream's revision after the append: its last event's, or the expected one when it got none. */
function headsOf(requests: readonly AppendRequest[], recorded: readonly RecordedEvent[]): Record<string, number> {
  const heads: Record<string, number> = {};
  // 'any' comes here only with events (append() sends the other case the long way).
  for (const request of requests) heads[request.stream] = request.expectedRevision === 'any' ? NO_STREAM : request.expectedRevision;
  for (const event of recorded) if (event.revision > heads[event.stream]) heads[event.stream] = event.revision;
  return heads;
}

function translate(error: unknown, requests: readonly AppendRequest[]): unknown {
  const code = (error as { code?: string }).code;
  const constraint = (error as { constraint?: string }).constraint;
  if (code === WRONG_REVISION) {
    return wrongRevision((error as { detail?: string }).detail ?? '?', requests);
  }
  // A deadlock or a racing first append to the same stream is a concurrency conflict like any other.
  if (code === DEADLOCK || (code === UNIQUE_VIOLATION && constraint?.startsWith('es_'))) {
    return new WrongExpectedRevision(requests[0]?.stream ?? '?', requests[0]?.expectedRevision ?? 'any');
  }
  return error;
}
