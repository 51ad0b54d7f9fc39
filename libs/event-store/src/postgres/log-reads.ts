import type { Pool, PoolClient } from 'pg';
import { GlobalFilter, LogPoint, LogPosition, RecordedEvent, START, StreamRange, Subscription } from '../port.js';
import { statementName } from './prepared.js';
import { BELOW_IN_FLIGHT } from './read-horizon.js';
import { fromArrayRow, queryEvents, READ_COLUMNS, READ_COLUMNS_NO_METADATA } from './rows.js';

const HORIZON = `horizon AS (SELECT ${BELOW_IN_FLIGHT} AS below FROM pg_current_snapshot() AS s)`;

// Nothing is recorded outside these years; PostgreSQL would refuse to read an ISO year beyond them.
const FIRST_MICROS = (() => {
  const first = new Date(0);
  first.setUTCFullYear(1, 0, 1); // Date.UTC would read year 1 as 1901
  return BigInt(first.getTime()) * 1000n;
})();
const LAST_MICROS = BigInt(Date.UTC(9999, 11, 31, 23, 59, 59, 999)) * 1000n + 999n;

/** A microsecond count as timestamptz text, digit for digit (a JS Date would drop the last three). */
export function microsToTimestamp(micros: bigint): string {
  const clamped = micros < FIRST_MICROS ? FIRST_MICROS : micros > LAST_MICROS ? LAST_MICROS : micros;
  let ms = clamped / 1000n;
  let rest = clamped % 1000n;
  if (rest < 0n) { rest += 1000n; ms -= 1n; }
  const date = new Date(0);
  date.setTime(Number(ms));
  const iso = date.toISOString();
  return `${iso.slice(0, -1)}${rest.toString().padStart(3, '0')}+00:00`;
}

/** "This es_events row is at or before the point", its values pushed onto `params`. */
export function pointCondition(point: LogPoint, params: unknown[], table = ''): string {
  if ('time' in point) return `(${table}recorded_at <= $${params.push(microsToTimestamp(point.time))}::timestamptz)`;
  const commit = params.push(point.position.commit.toString());
  const prepare = params.push(point.position.prepare.toString());
  return `((${table}transaction_id, ${table}position) <= ($${commit}::text::xid8, $${prepare}::bigint))`;
}

export function readStream(pool: Pool, stream: string, fromRevision: number): Promise<RecordedEvent[]> {
  return queryEvents(pool, `SELECT ${READ_COLUMNS} FROM es_events WHERE stream_id = $1 AND revision >= $2 ORDER BY revision`, [stream, fromRevision]);
}

export async function readStreamRange(pool: Pool, stream: string, range: StreamRange): Promise<RecordedEvent[]> {
  const params: unknown[] = [stream];
  const backwards = range.direction === 'backwards';
  const conditions = ['stream_id = $1'];
  if (range.fromRevision !== undefined) conditions.push(`revision ${backwards ? '<=' : '>='} $${params.push(range.fromRevision)}`);
  if (range.until) {
    // The run ends before the first event past the point, found in revision order from where the
    // run starts (the index on (stream_id, revision) stops there): a read from a snapshot near
    // the point touches only the events between them, never the rest of a long stream.
    const start = backwards || range.fromRevision === undefined ? '0' : '$2';
    conditions.push(`revision < COALESCE((SELECT x.revision FROM es_events x WHERE x.stream_id = $1 AND x.revision >= ${start}
      AND NOT ${pointCondition(range.until, params, 'x.')} ORDER BY x.revision LIMIT 1), 9223372036854775807)`);
  }
  const limit = range.limit === undefined ? '' : `LIMIT $${params.push(range.limit)}`;
  return queryEvents(pool, `SELECT ${READ_COLUMNS} FROM es_events WHERE ${conditions.join(' AND ')}
     ORDER BY revision ${backwards ? 'DESC' : 'ASC'} ${limit}`, params);
}

/** The filter's conditions, for readAll's statement; `params` already holds its first values. */
function filterConditions(filter: GlobalFilter | undefined, params: unknown[]): string {
  if (!filter) return '';
  const conditions: string[] = [];
  if (filter.until) conditions.push(pointCondition(filter.until, params));
  if (filter.types) conditions.push(`type = ANY($${params.push(filter.types)}::text[])`);
  return conditions.map((condition) => ` AND ${condition}`).join('');
}

export function readAll(pool: Pool, from: LogPosition, limit: number, filter?: GlobalFilter): Promise<RecordedEvent[]> {
  const params: unknown[] = [from.commit.toString(), from.prepare.toString(), limit];
  const filtered = filterConditions(filter, params);
  return queryEvents(pool,
    `WITH ${HORIZON}
     SELECT ${filter?.metadata === false ? READ_COLUMNS_NO_METADATA : READ_COLUMNS}
     FROM es_events, horizon
     WHERE transaction_id < horizon.below
       AND (transaction_id, position) > ($1::text::xid8, $2::bigint)${filtered}
     ORDER BY es_events.transaction_id, es_events.position LIMIT $3`,
    params,
  );
}

/** The head, and the readable events up to it from `from`, in one snapshot: es_read_to_head (event-store-schema.ts). */
const READ_TO_HEAD = 'SELECT * FROM es_read_to_head($1::text::xid8, $2::bigint, $3::int, $4::text[], $5::boolean)';

export async function readToHead(
  pool: Pool, from: LogPosition, limit: number, filter: Omit<GlobalFilter, 'until'>,
): Promise<{ head: LogPosition; events: RecordedEvent[] }> {
  const values = [from.commit.toString(), from.prepare.toString(), limit, filter.types ?? null, filter.metadata !== false];
  const { rows } = await pool.query<unknown[]>({ name: statementName(READ_TO_HEAD), text: READ_TO_HEAD, values, rowMode: 'array' });
  if (rows.length === 0) return { head: START, events: [] };
  const head = { commit: BigInt(rows[0][0] as string), prepare: BigInt(rows[0][1] as string) };
  return { head, events: rows[0][2] === null ? [] : rows.map((row) => fromArrayRow(row.slice(2))) };
}

/** The global order from `from` on, polled: each readable page handed over, the next read after it. */
export function pollLog(pool: Pool, from: LogPosition, intervalMs: number, handle: (events: RecordedEvent[]) => Promise<void>): Subscription {
  let position = from;
  let closed = false;
  const loop = (async () => {
    while (!closed) {
      const batch = await readAll(pool, position, 500);
      if (batch.length > 0) {
        await handle(batch);
        position = batch[batch.length - 1].position;
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    close: async () => {
      closed = true;
      await loop;
    },
  };
}

/**
 * The newest committed event in the global order: an acknowledged append has committed, so this
 * statement's snapshot sees it, and it sorts at or before that event. Served backwards by the
 * global order's index. A database no server has started on holds no log yet: that is an empty
 * log (an operator's status of it), not an error.
 */
export async function readHead(db: Pool | PoolClient): Promise<LogPosition> {
  try {
    const { rows } = await db.query<{ commit: string; prepare: string }>(
      `SELECT transaction_id::text AS commit, position::text AS prepare FROM es_events
       ORDER BY transaction_id DESC, position DESC LIMIT 1`);
    return rows.length === 0 ? START : { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) };
  } catch (error) {
    if (noLogYet(error)) return START;
    throw error;
  }
}

/** Committed events after `after` (up to `until`), counted by the global order's index. */
export async function countEvents(pool: Pool, after: LogPosition, until?: LogPosition): Promise<number> {
  const params: unknown[] = [after.commit.toString(), after.prepare.toString()];
  const bound = until ? ` AND ${pointCondition({ position: until }, params)}` : '';
  try {
    const { rows } = await pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM es_events WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint)${bound}`, params);
    return Number(rows[0].n);
  } catch (error) {
    if (noLogYet(error)) return 0;
    throw error;
  }
}

const UNDEFINED_TABLE = '42P01';
const noLogYet = (error: unknown) => (error as { code?: string }).code === UNDEFINED_TABLE;

/** Served by the requestId expression index (GET /ledger/audit/request/{id}). */
export async function readRequest(pool: Pool, requestId: string): Promise<RecordedEvent[]> {
  return queryEvents(pool,
    `SELECT ${READ_COLUMNS} FROM es_events WHERE (metadata->>'requestId') = $1 ORDER BY es_events.transaction_id, es_events.position`, [requestId]);
}
