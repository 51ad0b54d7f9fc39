/**
 * Who may touch the candidate view: many readers at once (searches that pause to let other
 * requests run, the snapshot writer encoding part by part), or the one writer that folds the
 * log into it, never both. A waiting writer goes before readers that arrive after it, so a
 * stream of searches cannot hold the view back from the writes it must show.
 *
 * A search may let in writes that only move usage (claims): they change no set, list or tree it
 * walks, only the rooms it reads next, as a claim committed between two of upstream's queries
 * does. So a long search holds back neither the claims nor the questions that must see them.
 */
export class ViewLease {
  /** Readers every write waits for. */
  private readers = 0;
  /** Readers only a write that changes more than usage waits for. */
  private usageTolerant = 0;
  private writing = false;
  private writersWaiting = 0;
  private readonly queue: (() => void)[] = [];

  /** `letUsageIn`: writes that only move usage may run while `work` pauses. */
  async read<T>(work: () => Promise<T>, letUsageIn = false): Promise<T> {
    while (this.writing || this.writersWaiting > 0) await this.turn();
    if (letUsageIn) this.usageTolerant++;
    else this.readers++;
    try {
      return await work();
    } finally {
      if (letUsageIn) this.usageTolerant--;
      else this.readers--;
      this.wake();
    }
  }

  /**
   * `work` runs alone: synchronous, so the view changes in one turn of the event loop.
   * `usageOnly`: it only moves usage, so readers that let such writes in do not hold it.
   */
  async write<T>(work: () => T, usageOnly = false): Promise<T> {
    this.writersWaiting++;
    try {
      while (this.writing || this.readers > 0 || (!usageOnly && this.usageTolerant > 0)) await this.turn();
    } finally {
      this.writersWaiting--;
    }
    this.writing = true;
    try {
      return work();
    } finally {
      this.writing = false;
      this.wake();
    }
  }

  /** Whether a write waits for the readers (or another write) to end. */
  get writeWaiting(): boolean {
    return this.writersWaiting > 0;
  }

  /** Whether a write could run right now without waiting. */
  get free(): boolean {
    return !this.writing && this.readers === 0 && this.usageTolerant === 0;
  }

  private turn(): Promise<void> {
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private wake(): void {
    for (const resolve of this.queue.splice(0)) resolve();
  }
}
