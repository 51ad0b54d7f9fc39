import type { Pool } from 'pg';
import type { AppendRequest, LogPosition } from '../port.js';

/**
 * The connection was lost once the write was on its way (PostgreSQL: during COMMIT; KurrentDB: during
 * the append call): it may have been applied or not. PostgreSQL's adapter raises it only after
 * asking the database again failed to settle it.
 */
export class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown) {
    super(`the connection was lost after the write was sent, and its outcome could not be learned: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'CommitOutcomeUnknown';
  }
}

/**
 * One event the transaction inserted, recognisable in the log: its stream and revision, and its
 * metadata (which holds the request id); the transaction's fence token (es_append), which it holds
 * while it runs; and the heads of the append's streams, answered if it committed.
 */
export interface WrittenMark {
  readonly stream: string;
  readonly revision: number;
  readonly fence: bigint;
  readonly metadata: string;
  readonly revisions: Readonly<Record<string, number>>;
}

/** The append's last event as resolveCommit recognises it in the log; none for an append of no events, whose COMMIT writes nothing. */
export function markOf(ordered: readonly AppendRequest[], fence: bigint, revisions: Readonly<Record<string, number>>): WrittenMark | undefined {
  const last = ordered.filter((request) => request.events.length > 0).at(-1);
  if (!last) return undefined;
  return { stream: last.stream, revision: revisions[last.stream], fence, revisions,
    metadata: JSON.stringify(last.events[last.events.length - 1]?.metadata ?? {}) };
}

/**
 * An ordinary error PostgreSQL answered to COMMIT (a deferred constraint, a serialization failure)
 * rolled the transaction back: the outcome is known. Anything else may have come after the server
 * committed: a reset socket or "Connection terminated" (no SQLSTATE), and the connection-ending
 * classes — 08 (connection), 57 (a shutdown or termination: a backend told to stop while its
 * commit waits for the standby has committed locally), 58 and XX (system and internal errors).
 */
export function outcomeInDoubt(error: unknown): boolean {
  // node-postgres's DatabaseError carries the server's severity; Node's own errors (EPIPE) do not.
  const { code, severity } = (error ?? {}) as { code?: unknown; severity?: unknown };
  if (typeof code !== 'string' || typeof severity !== 'string') return true;
  return /^(08|57|58|XX)/.test(code);
}

/** How long a write whose COMMIT was cut off waits to learn its outcome: about a failover's duration. */
const RESOLVE_WITHIN_MS = 6000;
const PAUSE_MS = 300;

/**
 * Asks the database (a new pooled connection: through a failover proxy, possibly a new primary)
 * whether the transaction committed, with es_settle: it waits for the transaction to end, fences
 * its token so that a message of it still on its way can no longer commit, then looks for the
 * marked event. Found, the answer is its position; not found, the transaction never will commit.
 * A transaction still running (a commit waiting for its synchronous standby) or an unreachable
 * database are asked again a few times, then the doubt is reported as such: never as a failure
 * that may be false.
 */
export async function resolveCommit(
  pool: Pool, mark: WrittenMark, cause: unknown, withinMs = RESOLVE_WITHIN_MS,
): Promise<LogPosition | 'not committed'> {
  const deadline = Date.now() + withinMs;
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    try {
      const { rows } = await withDeadline(deadline, pool.query<{ commit: string; prepare: string }>(
        'SELECT transaction_id::text AS commit, position::text AS prepare FROM es_settle($1::bigint, $2, $3, $4::jsonb, $5)',
        [mark.fence.toString(), mark.stream, mark.revision, mark.metadata, Math.max(1, deadline - Date.now())]));
      return rows.length > 0 ? { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) } : 'not committed';
    } catch { /* the database is still away, or the transaction still runs: ask again */ }
  }
  throw new CommitOutcomeUnknown(cause);
}

/** A connection attempt may hang for the pool's whole connect time-out: the answer cannot wait that long. */
function withDeadline<T>(deadline: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), Math.max(0, deadline - Date.now()));
  });
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
