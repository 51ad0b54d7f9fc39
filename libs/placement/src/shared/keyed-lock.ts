/** A holder's side of its turn. */
export interface Turn {
  /**
   * Lets the next holder of these keys start before this work ends: once this holder's append is
   * on its way, the next can decide on the state it leaves and append behind it.
   */
  handOver(): void;
  /** Settles once every earlier holder of any of these keys has ended its work. */
  readonly earlierEnded: Promise<void>;
}

interface Holder {
  readonly handedOver: Promise<void>;
  /** This holder's and every earlier holder's work on the key ended. */
  readonly ended: Promise<void>;
}

/**
 * In-process turns per key. Claims on the same provider would only race and retry in the log's
 * optimistic check; letting them take turns here keeps that check for other processes only.
 * Keys are taken in sorted order, so two holders of overlapping sets cannot wait on each other.
 */
export class KeyedLock {
  private readonly holders = new Map<string, Holder>();

  async run<T>(keys: readonly string[], work: (turn: Turn) => Promise<T>): Promise<T> {
    let handOver!: () => void;
    let end!: () => void;
    const handedOver = new Promise<void>((resolve) => (handOver = resolve));
    const ended = new Promise<void>((resolve) => (end = resolve));
    const taken: [string, Holder][] = [];
    const earlier: Promise<void>[] = [];
    try {
      for (const key of [...new Set(keys)].sort()) {
        const before = this.holders.get(key);
        const mine = { handedOver, ended: before ? Promise.all([before.ended, ended]).then(() => undefined) : ended };
        this.holders.set(key, mine);
        taken.push([key, mine]);
        if (before) {
          earlier.push(before.ended);
          await before.handedOver;
        }
      }
      return await work({ handOver, earlierEnded: Promise.all(earlier).then(() => undefined) });
    } finally {
      handOver();
      end();
      // A key is forgotten once every holder so far has ended: a holder that ends before the one it
      // followed (its append answered first) still leaves the next one that earlier work to await.
      for (const [key, mine] of taken) void mine.ended.then(() => this.holders.get(key) === mine && this.holders.delete(key));
    }
  }

  /** Keys currently held or waited for (for tests and metrics). */
  get size(): number {
    return this.holders.size;
  }
}
