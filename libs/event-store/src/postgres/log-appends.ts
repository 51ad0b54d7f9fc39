import type { Pool } from 'pg';
import { AppendedEvent, AppendRequest, AppendResult, LogPosition, RecordedEvent, START, WrongExpectedRevision } from '../port.js';
import { InlineProjector, THIS_TRANSACTION } from './sql-client.js';
import { BatchedSql, Held } from './batched-sql.js';
import { fenceToken, recordingTime } from './recording-time.js';
import { toRecordedEvent } from './rows.js';
import { microsToTimestamp } from './log-reads.js';
import { markOf, outcomeInDoubt, resolveCommit, WrittenMark } from './commit-outcome.js';
import { BATCH_LOCK_TIMEOUT, BatchOutcome } from './append-batches.js';

const DEADLOCK = '40P01';
const UNIQUE_VIOLATION = '23505';
/** Raised by es_append (event-store-schema.ts) when a stream is not at the expected revision. */
const WRONG_REVISION = 'ES409';
/** es_append's "any revision". */
const ANY_REVISION = -2;

const ES_APPEND_CALL = 'es_append($1::bigint, $2::timestamptz, $3::text[], $4::bigint[], $5::int[], $6::text[], $7::jsonb[], $8::jsonb[])';
/**
 * Only what the store assigns comes back: the data and metadata are the appender's own, and
 * sending them back as text to be parsed again cost PostgreSQL and the server more than the
 * rest of the answer (the inline projections read them from the request instead).
 */
const RECORDED = `SELECT transaction_id, position, stream_id, revision FROM ${ES_APPEND_CALL}`;
/** Where nothing is projected from the answer, only the last event's position: an import's thousands of rows are not sent back and parsed. */
const LAST = `SELECT transaction_id, position, stream_id FROM ${ES_APPEND_CALL} ORDER BY position DESC LIMIT 1`;
/** The same, for an append sharing its transaction with others: a moved stream answers one row with a NULL position. */
const orConflict = (text: string) => text.replace('es_append(', 'es_append_or_conflict(');
/**
 * Several appends as one call: the last event of each, whose ordinals in the events sent are the
 * ninth parameter (es_append answers its rows in the order the events were sent).
 */
const LAST_OF_EACH = `SELECT e.transaction_id, e.position FROM ${ES_APPEND_CALL} WITH ORDINALITY AS e WHERE e.ordinality = ANY($9::bigint[])`;
/** The heads of 'any' streams, read after es_append locked them: exact, and the only way to learn one given no events. */
const HEADS = 'SELECT stream_id, revision FROM es_streams WHERE stream_id = ANY($1::text[])';
/**
 * A shared transaction takes every lock on its streams first, in one order, as an append alone
 * does: a batch then never waits for a stream another process's transaction holds while holding
 * one that transaction waits for. That order is es_append's, by code point: "C" collation,
 * whatever the database's own (en_US orders 'trait-CUSTOM_A' and 'trait-CUSTOMB' the other way).
 */
const LOCK_STREAMS = 'SELECT 1 FROM es_streams WHERE stream_id = ANY($1::text[]) ORDER BY stream_id COLLATE "C" FOR NO KEY UPDATE';
/** A shared transaction's bound on any lock it waits for (BATCH_LOCK_TIMEOUT). */
const WAIT_BRIEFLY = `SET LOCAL lock_timeout = '${BATCH_LOCK_TIMEOUT}'`;

type Rows = readonly Record<string, any>[];

/** What a transaction's appends are recorded with: its fence token and its time (recording-time.ts). */
interface Recording {
  readonly fence: bigint;
  readonly micros: bigint;
}

const recording = (): Recording => ({ fence: fenceToken(), micros: recordingTime() });

/**
 * A transaction of appends on a pooled connection of its own: BEGIN goes with its first message,
 * and its events are recorded with `work`'s fence and time. `work` writes up to the COMMIT,
 * telling `committing` just before sending it which event marks what it wrote (none when it
 * wrote none). Should the connection be lost with the COMMIT sent, the transaction may have
 * committed or not, and answering that it failed could deny a claim that holds: the connection
 * is discarded, and `inDoubt` answers with `settle`, which asks the database (resolveCommit) on
 * another. Any other failure is rolled back and thrown.
 */
async function appendTransaction<T>(
  pool: Pool,
  work: (tx: BatchedSql, at: Recording, committing: (mark: WrittenMark | undefined) => void) => Promise<T>,
  inDoubt: (settle: () => Promise<LogPosition | 'not committed'>, mark: WrittenMark, cause: unknown) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  const at = recording();
  // Set only once the COMMIT is on its way: before that, no failure leaves the outcome in doubt.
  let mark: WrittenMark | undefined;
  let released = false;
  try {
    const tx = new BatchedSql(client);
    tx.defer('BEGIN');
    return await work(tx, at, (written) => (mark = written));
  } catch (error) {
    const sent = mark;
    if (sent && outcomeInDoubt(error)) {
      // Released before settling: the settlement needs a connection of the pool's own.
      client.release(true);
      released = true;
      return await inDoubt(() => resolveCommit(pool, sent, error), sent, error);
    }
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    if (!released) client.release();
  }
}

/** The recording time as a Date (milliseconds), as pg parses a timestamptz the log gives back. */
const dateOf = (at: Recording) => new Date(Number(at.micros / 1000n));

/**
 * One append in its own transaction. Where every event's revision is known beforehand (each
 * stream written to names its expected revision, as every command does), it is written as
 * appendForeseen writes: projected first, all in one message. Otherwise ('any' with events)
 * es_append answers first and its events are projected from that answer.
 */
export async function appendAlone(pool: Pool, projectors: readonly InlineProjector[], requests: readonly AppendRequest[]): Promise<AppendResult> {
  if (foreseen(requests)) {
    const [outcome] = await appendForeseen(pool, projectors, [requests]).catch((error: unknown) => {
      throw translate(error, requests);
    });
    if ('refused' in outcome) throw outcome.refused;
    return outcome.written;
  }
  return appendTransaction(pool, async (tx, at, committing) => {
    const projecting = projectors.length > 0;
    const answers = await tx.queryEach(statementsOf(requests, at, projecting ? RECORDED : LAST, ''));
    const { recorded, written } = writtenBy(requests, answers, projecting ? at : undefined);
    for (const project of projectors) await project(tx, recorded, written.position);
    committing(markOf(requests, at.fence, written.revisions));
    await tx.commit();
    return written;
  }, async (settle, mark, cause) => {
    const settled = await settle();
    if (settled !== 'not committed') return { position: settled, revisions: mark.revisions };
    throw cause;
  }).catch((error: unknown) => {
    throw translate(error, requests);
  });
}

/**
 * Several appends in one transaction and one COMMIT. Where every event's revision is known
 * beforehand (every command's), the whole transaction goes in one message, as an append alone
 * does: most often no stream has moved, and a batch then costs one round trip, not two. If one
 * had, that message wrote nothing and the batch is written as any other: each append as
 * es_append_or_conflict, one whose stream moved refused and leaving no trace, the others written
 * with their projections, which wait for the appends' answers to leave the refused ones out.
 * Throws, having written nothing, when the transaction fails as a whole before its COMMIT.
 */
export async function appendTogether(
  pool: Pool, projectors: readonly InlineProjector[], batch: readonly (readonly AppendRequest[])[], chained: readonly boolean[] = [],
): Promise<BatchOutcome[]> {
  if (batch.every(foreseen)) {
    try {
      return await appendForeseen(pool, projectors, batch);
    } catch (error) {
      if ((error as { code?: string }).code !== WRONG_REVISION) throw error;
    }
  }
  // An append resting on an earlier one of the batch cannot be written on its own check: if that
  // one is refused, another writer may hold the revisions it expected. It is refused, and decided again.
  const free = batch.filter((_, i) => !chained[i]);
  const outcomes = free.length > 0 ? await appendEachOrConflict(pool, projectors, free) : [];
  let next = 0;
  return batch.map((requests, i) => (chained[i] ? { refused: wrongRevision(requests[0].stream, requests) } : outcomes[next++]));
}

/**
 * Appends whose revisions are all foreseen, in one transaction: their events projected before
 * they are written, with the time chosen for them, and BEGIN, es_append, the projections'
 * statements and the COMMIT sent in one message (unless a projection needs an answer on the way:
 * a consumer's later claim reads what it held). A stream that moved fails it whole (ES409),
 * having written nothing. The appends are one es_append call (foreseenStatements), which locks
 * every stream of the batch in its one order; several do not wait long for a lock (BATCH_LOCK_TIMEOUT).
 */
async function appendForeseen(
  pool: Pool, projectors: readonly InlineProjector[], batch: readonly (readonly AppendRequest[])[],
): Promise<BatchOutcome[]> {
  return appendTransaction(pool, async (tx, at, committing) => {
    if (batch.length > 1) tx.defer(WAIT_BRIEFLY);
    const answers = tx.hold(foreseenStatements(batch, at));
    for (const project of projectors) await project(tx, batch.flatMap((requests) => appendedAhead(requests, at)), THIS_TRANSACTION);
    let mark: WrittenMark | undefined;
    for (const requests of batch) mark = markOf(requests, at.fence, revisionsAhead(requests)) ?? mark;
    committing(mark);
    await tx.commit();
    return writtenByEach(batch, answers.results!).map((written): BatchOutcome => ({ written }));
  }, async (settle, _mark, cause) => {
    // Committed, the transaction's last event stands for each append's position: all of them
    // became visible with it. Not known, no append may be written again (it may hold): each is
    // answered with what made it unknown.
    let settled: LogPosition | 'not committed';
    try {
      settled = await settle();
    } catch (unknown) {
      return batch.map(() => ({ refused: unknown }));
    }
    if (settled !== 'not committed') return batch.map((requests) => ({ written: { position: settled, revisions: revisionsAhead(requests) } }));
    throw cause;
  });
}

/** A batch append by append, each as es_append_or_conflict, its answers read before anything is projected. */
async function appendEachOrConflict(
  pool: Pool, projectors: readonly InlineProjector[], batch: readonly (readonly AppendRequest[])[],
): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = [];
  return appendTransaction(pool, async (tx, at, committing) => {
    lockStreamsOf(tx, batch);
    // Every append in one message, whose answers the projections wait for: they leave the refused appends out.
    const projecting = projectors.length > 0;
    const plans = batch.map((requests) => statementsOf(requests, at, projecting ? RECORDED : LAST, 'or conflict'));
    const answers = await tx.queryEach(plans.flat());
    let from = 0;
    // The projections see the written appends' events in one call, in the order they were
    // appended: their checkpoints move once per transaction, not once per append.
    const recordedAll: RecordedEvent[] = [];
    let through = START;
    let mark: WrittenMark | undefined;
    for (const [i, requests] of batch.entries()) {
      const own = answers.slice(from, from += plans[i].length);
      const { rows } = own[0];
      if (rows.length === 1 && rows[0].position === null) {
        outcomes.push({ refused: wrongRevision(rows[0].stream_id, requests) });
        continue;
      }
      const { recorded, written } = writtenBy(requests, own, projecting ? at : undefined);
      recordedAll.push(...recorded);
      outcomes.push({ written });
      if (written.position.commit > 0n) {
        mark = markOf(requests, at.fence, written.revisions) ?? mark;
        through = written.position;
      }
    }
    for (const project of projectors) await project(tx, recordedAll, through);
    committing(mark);
    try {
      await tx.commit();
    } catch (error) {
      // No event to write (every append refused, or none had events): the outcomes stand,
      // whatever became of the COMMIT.
      if (!mark) return outcomes;
      throw error;
    }
    return outcomes;
  }, async (settle, _mark, cause) => {
    let committed: boolean;
    try {
      committed = await settle() !== 'not committed';
    } catch (unknown) {
      return outcomes.map((outcome) => ('written' in outcome ? { refused: unknown } : outcome));
    }
    if (committed) return outcomes;
    throw cause;
  });
}

/**
 * Foreseen appends, a batch's or one alone, as one es_append call: it checks and locks every
 * stream in its one order, as a transaction of several appends must (LOCK_STREAMS), and its
 * function, fence and insert run once, not once per append. It answers each append's last event
 * (LAST_OF_EACH); the heads of 'any' streams given no events are read after it.
 */
function foreseenStatements(batch: readonly (readonly AppendRequest[])[], at: Recording): Held[] {
  const ends: number[] = [];
  let events = 0;
  for (const requests of batch) {
    const own = requests.reduce((sum, request) => sum + request.events.length, 0);
    events += own;
    if (own > 0) ends.push(events);
  }
  const [append, ...heads] = statementsOf(batch.flat(), at, LAST_OF_EACH, '');
  return [{ ...append, params: [...append.params!, ends] }, ...heads];
}

/** Each foreseen append's outcome from the answers to foreseenStatements: its last event's row, and the heads of its 'any' streams. */
function writtenByEach(batch: readonly (readonly AppendRequest[])[], [appended, heads]: readonly { rows: Rows }[]): AppendResult[] {
  let next = 0;
  return batch.map((requests) => {
    const rows = requests.some((request) => request.events.length > 0) ? [appended.rows[next++]] : [];
    const streams = new Set(requests.map((request) => request.stream));
    return writtenBy(requests, [{ rows }, { rows: (heads?.rows ?? []).filter((row) => streams.has(row.stream_id)) }]).written;
  });
}

/**
 * A shared transaction's first statements: every stream of its appends locked in one order
 * (LOCK_STREAMS), and no lock awaited longer than BATCH_LOCK_TIMEOUT.
 */
function lockStreamsOf(tx: BatchedSql, batch: readonly (readonly AppendRequest[])[]): void {
  tx.defer(WAIT_BRIEFLY);
  tx.defer(LOCK_STREAMS, [[...new Set(batch.flatMap((requests) => requests.map((request) => request.stream)))]]);
}

/** Whether every event's revision is known before the append: each stream given events names its expected revision. */
function foreseen(requests: readonly AppendRequest[]): boolean {
  return requests.every((request) => request.events.length === 0 || request.expectedRevision !== 'any');
}

/** Each stream's head after a foreseen append: its expected revision moved by its events ('any' streams, given none, are read). */
function revisionsAhead(requests: readonly AppendRequest[]): Readonly<Record<string, number>> {
  return Object.fromEntries(requests.filter((request) => request.expectedRevision !== 'any')
    .map((request) => [request.stream, (request.expectedRevision as number) + request.events.length]));
}

/** A foreseen append's events as es_append will record them, but for the positions it gives them. */
function appendedAhead(requests: readonly AppendRequest[], at: Recording): AppendedEvent[] {
  const recordedAt = dateOf(at);
  return requests.flatMap((request) => request.events.map((event, i) => ({
    stream: request.stream, revision: (request.expectedRevision as number) + 1 + i, type: event.type, data: event.data as Record<string, unknown>,
    metadata: event.metadata ?? {}, recordedAt, recordedAtMicros: at.micros,
  })));
}

/** An append's statements: es_append (answering every event, or the last one only), then the heads of its 'any' streams. */
function statementsOf(requests: readonly AppendRequest[], at: Recording, text: string, shared: '' | 'or conflict'): Held[] {
  const statements: Held[] = [{ text: shared ? orConflict(text) : text, params: esAppendParams(requests, at) }];
  const any = requests.filter((request) => request.expectedRevision === 'any').map((request) => request.stream);
  if (any.length > 0) statements.push({ text: HEADS, params: [any] });
  return statements;
}

/** es_append's parameters: the fence and time, the streams in the caller's order, their expectations and event counts, then the events' columns. */
function esAppendParams(requests: readonly AppendRequest[], at: Recording): unknown[] {
  const events = requests.flatMap((request) => request.events);
  return [at.fence.toString(), microsToTimestamp(at.micros), requests.map((r) => r.stream),
    requests.map((r) => (r.expectedRevision === 'any' ? ANY_REVISION : r.expectedRevision)),
    requests.map((r) => r.events.length), events.map((e) => e.type), events.map((e) => JSON.stringify(e.data)),
    events.map((e) => JSON.stringify(e.metadata ?? {}))];
}

/**
 * What an append wrote, from the answers to statementsOf: the events for the projections (none
 * when there are none to feed), the last event's position, and each stream's head — the
 * expected revision moved by its events, or, for 'any', the head read after es_append.
 */
function writtenBy(requests: readonly AppendRequest[], [appended, heads]: readonly { rows: Rows }[], projected?: Recording) {
  const projecting = projected !== undefined;
  const recorded = projected ? recordedFrom(requests, appended.rows, projected) : [];
  const last = appended.rows.at(-1);
  const position: LogPosition = !last ? START : projecting ? recorded.at(-1)!.position
    : { commit: BigInt(last.transaction_id), prepare: BigInt(last.position) };
  const read = (heads?.rows ?? []).map((row) => [row.stream_id as string, Number(row.revision)]);
  const revisions = { ...revisionsAhead(requests), ...Object.fromEntries(read) };
  return { recorded, written: { position, revisions } };
}

/**
 * The events es_append recorded, each from its row (what the store assigned), the request (the
 * rest) and the time the transaction recorded them at. Rows come in the order of the events sent
 * (positions are given in insertion order): the requests' events flattened. Each is checked
 * against its row, so a mismatch cannot pass unseen.
 */
function recordedFrom(requests: readonly AppendRequest[], rows: Rows, at: Recording): RecordedEvent[] {
  const sent = requests.flatMap((request) => request.events.map((event) => ({ stream: request.stream, event })));
  if (sent.length !== rows.length) throw new Error(`es_append recorded ${rows.length} events of ${sent.length}`);
  const recordedAt = dateOf(at);
  return rows.map((row, i) => {
    const { stream, event } = sent[i];
    if (row.stream_id !== stream) throw new Error(`es_append recorded ${row.stream_id} where ${stream} was sent`);
    return toRecordedEvent({ ...row, type: event.type, data: event.data, metadata: event.metadata, recorded_at: recordedAt, recorded_us: at.micros });
  });
}

function wrongRevision(stream: string, requests: readonly AppendRequest[]): WrongExpectedRevision {
  return new WrongExpectedRevision(stream, requests.find((request) => request.stream === stream)?.expectedRevision ?? 'any');
}

function translate(error: unknown, requests: readonly AppendRequest[]): unknown {
  const code = (error as { code?: string }).code;
  const constraint = (error as { constraint?: string }).constraint;
  if (code === WRONG_REVISION) return wrongRevision((error as { detail?: string }).detail ?? '?', requests);
  // A deadlock or a racing first append to the same stream is a concurrency conflict like any other.
  if (code === DEADLOCK || (code === UNIQUE_VIOLATION && constraint?.startsWith('es_'))) {
    return new WrongExpectedRevision(requests[0]?.stream ?? '?', requests[0]?.expectedRevision ?? 'any');
  }
  return error;
}
