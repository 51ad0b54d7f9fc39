import { appendOnceAnswered, restingOnRefused } from '../append-after.js';
import { AppendRequest, AppendResult } from '../port.js';

/** What a batch answers for one of its appends: written, or refused with the error it alone would have got. */
export type BatchOutcome = { readonly written: AppendResult } | { readonly refused: unknown };

/** How appends are written: one in its own transaction, or several in one transaction. */
export interface AppendWriter {
  alone(requests: readonly AppendRequest[]): Promise<AppendResult>;
  /**
   * One outcome per append, in order. Throws when the transaction as a whole failed before its
   * COMMIT was sent: nothing of it was written, and each append is then written alone. `chained`
   * marks the appends that rest on an earlier one of the batch: written only with it.
   */
  together(batch: readonly (readonly AppendRequest[])[], chained: readonly boolean[]): Promise<BatchOutcome[]>;
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
  /** Appends of this process it rests on (appendAfter) that were not answered when it arrived; emptied once it is. */
  after: readonly Waiting[];
  /** Undefined until answered: whether it was written. */
  written?: boolean;
  /** What its caller was given. */
  readonly promise: Promise<AppendResult>;
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
 *
 * An append resting on another still waiting (appendAfter: a claim decided on what the claim
 * before it on the same provider will leave) joins its transaction. It is written only with it:
 * where a stream moved, the one it rests on may be refused and another writer hold the revision
 * it expected, so then it is refused too (appendTogether), and its command decides again.
 */
export class AppendBatches {
  private readonly waiting: Waiting[] = [];
  /** Each append not yet answered, by the promise it was given: appendAfter names appends by it. */
  private readonly unanswered = new WeakMap<Promise<AppendResult>, Waiting>();
  private writing = false;

  constructor(private readonly writer: AppendWriter) {}

  append(requests: readonly AppendRequest[]): Promise<AppendResult> {
    return this.enqueue(requests, []);
  }

  /**
   * An append that rests on earlier ones of this process (EventStore.appendAfter): it joins their
   * transaction when they still wait for one, and is refused if one of them is not written.
   */
  appendAfter(earlier: readonly Promise<AppendResult>[], requests: readonly AppendRequest[]): Promise<AppendResult> {
    const after = earlier.map((promise) => this.unanswered.get(promise));
    if (after.some((waiting) => waiting === undefined)) return appendOnceAnswered(earlier, requests, (ordered) => this.append(ordered));
    return this.enqueue(requests, after as Waiting[]);
  }

  private enqueue(requests: readonly AppendRequest[], after: readonly Waiting[]): Promise<AppendResult> {
    let resolve!: (result: AppendResult) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<AppendResult>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    const waiting: Waiting = {
      requests, after, promise,
      resolve: (result) => answer(true, () => resolve(result)),
      reject: (error) => answer(false, () => reject(error)),
    };
    const answer = (written: boolean, settle: () => void) => {
      waiting.written = written;
      waiting.after = [];
      this.unanswered.delete(promise);
      settle();
    };
    this.unanswered.set(promise, waiting);
    this.queue(waiting);
    return promise;
  }

  private queue(waiting: Waiting): void {
    this.waiting.push(waiting);
    if (!this.writing) void this.drain();
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.take();
        if (batch.length === 1) await settle(batch[0], this.writer.alone(batch[0].requests));
        else if (batch.length > 1) await this.together(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  /**
   * The next batch. An append resting on one written earlier is an append like any other; on one
   * not written, it is refused; on one still being written alone (a failed batch's), it waits for
   * that one's answer to come back to the queue.
   */
  private take(): Waiting[] {
    const batch: Waiting[] = [];
    for (const waiting of this.waiting.splice(0, MAX_BATCH)) {
      const outside = waiting.after.filter((earlier) => !batch.includes(earlier));
      if (outside.some((earlier) => earlier.written === false)) waiting.reject(restingOnRefused(waiting.requests));
      else if (outside.some((earlier) => earlier.written === undefined)) {
        void Promise.allSettled(outside.map((earlier) => earlier.promise)).then(() => this.queue(waiting));
      } else batch.push(waiting);
    }
    return batch;
  }

  private async together(batch: readonly Waiting[]): Promise<void> {
    let outcomes: BatchOutcome[];
    try {
      outcomes = await this.writer.together(
        batch.map((waiting) => waiting.requests),
        batch.map((waiting) => waiting.after.some((earlier) => batch.includes(earlier))),
      );
    } catch {
      sharedTransactions.fellBack++;
      // Each in a transaction of its own, as appends were before batches: one that waits for a
      // lock (that of another process's append) holds up neither the others nor the next batch.
      // One resting on another waits for that one's answer.
      for (const waiting of batch) {
        const earlier = waiting.after.map((before) => before.promise);
        void settle(waiting, appendOnceAnswered(earlier, waiting.requests, (ordered) => this.writer.alone(ordered)));
      }
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
