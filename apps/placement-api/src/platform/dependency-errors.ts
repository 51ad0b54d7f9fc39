import { CommitOutcomeUnknown } from '#event-store/index.js';
import { kurrentUnavailable } from '#event-store/kurrent/unavailable.js';
import { PlacementError } from './placement-error.js';

/** How long a client should wait before retrying after the database failed: pools reconnect on the next query. */
const RETRY_AFTER_SECONDS = 2;

// SQLSTATE classes and codes meaning "the database is not there right now", not "the request is wrong".
const UNAVAILABLE_STATES = /^(08|53|57P0[1-4]|58)/;
// What node-postgres and the network say when no SQLSTATE can be had: the connection never came or died.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const UNAVAILABLE_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed|Cannot use a pool after calling end/i;

/** The error node-postgres raised, under TypeORM's or our own wrappers. */
function driverErrors(error: unknown): Array<{ code?: unknown; message?: unknown }> {
  const found: Array<{ code?: unknown; message?: unknown }> = [];
  let current: any = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    found.push(current);
    current = current.driverError ?? current.cause;
  }
  return found;
}

/**
 * A failure of the database rather than of the code, in upstream's terms: the database down or
 * a connection dropped mid-request is a 503 with Retry-After (the write, in one transaction, was
 * not applied); a value PostgreSQL refuses (SQLSTATE class 22: NUL in text, a time out of range)
 * is the client's bad input, a 400. Anything else stays an unexpected error.
 */
export function databaseFailure(error: unknown): PlacementError | undefined {
  for (const candidate of driverErrors(error)) {
    if (candidate instanceof CommitOutcomeUnknown) return commitOutcomeUnknown();
    if (kurrentUnavailable(candidate)) {
      return new PlacementError(503, 'The event log (KurrentDB) is unavailable; retry later.', undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) });
    }
    const code = typeof candidate.code === 'string' ? candidate.code : '';
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if (/^22/.test(code)) return new PlacementError(400, `Invalid input: ${message}`);
    if (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_CODES.has(code) || UNAVAILABLE_MESSAGES.test(message)) {
      return new PlacementError(503, 'The database is unavailable; retry later.', undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) });
    }
  }
  return undefined;
}

/**
 * The request's write committed, then the database went away before its answer was complete
 * (reading the result back): a 503, since there is no answer to give, that says the write stands.
 */
export function writtenButUnanswered(): PlacementError {
  return new PlacementError(503, 'This write was applied, but the database connection was lost before its answer could be '
    + 'read back. Do not repeat it: GET the resource, or GET /ledger/audit/request/{request_id} with the request_id of this '
    + 'answer lists what the write recorded.', undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) });
}

/**
 * The write's COMMIT was sent and its connection lost, and asking the database again did not tell
 * whether it was applied (a failover still under way). Still a 503 — the client must look before
 * it retries — but one that says the write may stand and how to find out: the events of a write
 * carry its request id.
 */
function commitOutcomeUnknown(): PlacementError {
  return new PlacementError(503, 'The outcome of this write is unknown: the database connection was lost while it was being '
    + 'committed, and it may have been applied. Check before retrying: GET the resource, or GET /ledger/audit/request/{request_id} '
    + 'with the request_id of this answer lists what the write recorded.', undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) });
}
