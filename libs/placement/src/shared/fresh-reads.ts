const ignore = () => undefined;

/**
 * Reads whose answer must be newer than the question: each caller gets the outcome of a read sent
 * after it called, so it reflects every write acknowledged before that. One read is in flight at a
 * time. A caller who finds none starts one; a caller who finds one waits for the next, which is
 * sent when the one in flight ends and answers everyone who asked meanwhile. Under concurrent
 * queries this is one round trip for many; alone, a caller waits for nothing but its own read.
 */
export class FreshReads<T> {
  private inFlight: Promise<T> | null = null;
  private next: Promise<T> | null = null;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.inFlight) return this.start();
    // The read in flight may have been sent before this call: only one sent after it will do.
    this.next ??= this.inFlight.then(ignore, ignore).then(() => {
      this.next = null;
      return this.start();
    });
    return this.next;
  }

  private start(): Promise<T> {
    const read = this.read().finally(() => {
      if (this.inFlight === read) this.inFlight = null;
    });
    this.inFlight = read;
    return read;
  }
}
