import { AppendRequest, AppendResult } from '../port.js';

/** What a batch answers for one of its appends: written, or refused with the error it alone would have got. */
export type BatchOutcome = { readonly written: AppendResult } | { readonly refused: unknown };

/** How appends are written: one in its own transaction, or several in one transaction. */
export interface AppendWriter {
  alone(requests: readonly AppendRequest[]): Promise<AppendResult>;
  /**
   * One outcome per append, in order. Throws when the transaction as a whole failed before its
   * COMMIT was sent: nothing of it was written, and each append is then written alone.
   */
  together(batch: readonly (readonly AppendRequest[])[]): Promise<BatchOutcome[]>;
}

/**
 * At most this many appends share a transaction: each is a subtransaction, and PostgreSQL keeps
 * 64 of a transaction's subtransactions in shared memory before every snapshot must look further.
 */
export const MAX_BATCH = 16;

/**
 * How long a shared transaction waits for a lock before it gives up and its appends are written
 * one by one. Its projections lock rows that are no stream's (a project's usage hours) in the
 * order of its appends, so two processes' batches can wait for each other; PostgreSQL would
 * break that after deadlock_timeout (1 s by default), far longer than an append takes.
 */
export const BATCH_LOCK_TIMEOUT = '100ms';

/**
 * What this process's batches did, for /metrics: transactions several appends shared that
 * answered each append themselves, the appends written in them, and transactions that failed as
 * a whole (each of their appends then written alone). A steady share falling back means batches
 * wait on other processes' locks.
 */
export const sharedTransactions = { together: 0, appendsWritten: 0, fellBack: 0 };

interface Waiting {
  readonly requests: readonly AppendRequest[];
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/**
 * Group commit for the appends of this process. Part of what a transaction costs PostgreSQL does
 * not grow with what it holds: its round trips, each waking the backend, BEGIN and COMMIT, the
 * lock of its streams and the projections' checkpoints (docs/performance.md). So appends
 * arriving while another is being written wait for it and are then written together
 * (log-appends.ts, appendTogether): a batch costs the round trips of one append alone; a lone
 * append is written as before, without waiting.
 *
 * One batch is in flight at a time: two could each hold a row the other's projections want
 * (a project's usage hours), and a batch that waits for a lock gives up soon. Each append
 * keeps its own outcome: one whose stream moved is refused alone (es_append_or_conflict) and the
 * others are written. A transaction that fails as a whole (a projection's statement, a lock
 * awaited too long: see BATCH_LOCK_TIMEOUT) wrote nothing, and its appends are written again,
 * each in a transaction of its own, so each gets the answer it would have had alone.
 */
export class AppendBatches {
  private readonly waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly writer: AppendWriter) {}

  append(requests: readonly AppendRequest[]): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ requests, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        if (batch.length === 1) await settle(batch[0], this.writer.alone(batch[0].requests));
        else await this.together(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  private async together(batch: readonly Waiting[]): Promise<void> {
    let outcomes: BatchOutcome[];
    try {
      outcomes = await this.writer.together(batch.map((waiting) => waiting.requests));
    } catch {
      sharedTransactions.fellBack++;
      // Each in a transaction of its own, as appends were before batches: one that waits for a
      // lock (that of another process's append) holds up neither the others nor the next batch.
      for (const waiting of batch) void settle(waiting, this.writer.alone(waiting.requests));
      return;
    }
    sharedTransactions.together++;
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i];
      if ('written' in outcome) {
        sharedTransactions.appendsWritten++;
        waiting.resolve(outcome.written);
      } else waiting.reject(outcome.refused);
    });
  }
}

async function settle(waiting: Waiting, result: Promise<AppendResult>): Promise<void> {
  try {
    waiting.resolve(await result);
  } catch (error) {
    waiting.reject(error);
  }
}
