/**
 * Who may touch the candidate view: many readers at once (searches that pause to let other
 * requests run, the snapshot writer encoding part by part), or the one writer that folds the
 * log into it, never both. A waiting writer goes before readers that arrive after it, so a
 * stream of searches cannot hold the view back from the writes it must show.
 */
export class ViewLease {
  private readers = 0;
  private writing = false;
  private writersWaiting = 0;
  private readonly queue: (() => void)[] = [];

  async read<T>(work: () => Promise<T>): Promise<T> {
    while (this.writing || this.writersWaiting > 0) await this.turn();
    this.readers++;
    try {
      return await work();
    } finally {
      this.readers--;
      this.wake();
    }
  }

  /** `work` runs alone: synchronous, so the view changes in one turn of the event loop. */
  async write<T>(work: () => T): Promise<T> {
    this.writersWaiting++;
    try {
      while (this.writing || this.readers > 0) await this.turn();
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

  /** Whether a write could run right now without waiting. */
  get free(): boolean {
    return !this.writing && this.readers === 0;
  }

  private turn(): Promise<void> {
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private wake(): void {
    for (const resolve of this.queue.splice(0)) resolve();
  }
}
