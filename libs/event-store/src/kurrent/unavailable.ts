import { CommitOutcomeUnknown } from '../postgres/commit-outcome.js';

// The client's error types (ErrorType) and gRPC's status codes for "the server is not there
// right now": unavailable (14), deadline exceeded (4), cancelled (1), and a follower that is
// not the leader. Matched by value, as a second copy of the client package defeats instanceof.
const UNAVAILABLE_TYPES = new Set(['unavailable', 'deadline-exceeded', 'timeout', 'cancelled', 'not-leader']);
const UNAVAILABLE_GRPC_CODES = new Set([1, 4, 14]);
// gRPC's own words when the call never left this process: no channel to the server.
const NEVER_SENT = /No connection established|failed to connect|ECONNREFUSED/i;

/** An error of the KurrentDB client meaning the server is unreachable, not that the request is wrong. */
export function kurrentUnavailable(error: unknown): boolean {
  const { type, code } = (error ?? {}) as { type?: unknown; code?: unknown };
  return (typeof type === 'string' && UNAVAILABLE_TYPES.has(type)) || (typeof code === 'number' && UNAVAILABLE_GRPC_CODES.has(code));
}

/**
 * An append that failed for want of the server: when the call never left (no connection), it was
 * not applied and the error stays a plain "unavailable"; when it may have reached the server
 * (a deadline, a cancellation, a connection dropped mid-call), its outcome is unknown.
 */
export function appendOutcome(error: unknown): unknown {
  if (!kurrentUnavailable(error)) return error;
  const { type, code, message } = error as { type?: unknown; code?: unknown; message?: unknown };
  const notSent = (type === 'unavailable' || code === 14) && NEVER_SENT.test(String(message ?? ''));
  return notSent || type === 'not-leader' ? error : new CommitOutcomeUnknown(error);
}
