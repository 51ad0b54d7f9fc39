/** Drops the oldest thing its keeper holds; false when it holds nothing. */
export type Reclaim = () => boolean;

/**
 * The bytes that answers' kept bytes and idle reply buffers hold together, against one bound.
 * Past it, keepers give back their oldest, idle buffers before kept bytes (a buffer is cheap to
 * make again, a summary's bytes cost a rendering); what cannot be made to fit is not kept.
 */
export class ReuseBudget {
  private held = 0;
  private readonly reclaimers: Reclaim[] = [];

  constructor(readonly limit: number) {}

  get used(): number {
    return this.held;
  }

  /** Keepers in the order they give back. */
  reclaimWith(reclaim: Reclaim): void {
    this.reclaimers.push(reclaim);
  }

  add(bytes: number): void {
    this.held += bytes;
    for (const reclaim of this.reclaimers) {
      while (this.held > this.limit) if (!reclaim()) break;
    }
  }

  release(bytes: number): void {
    this.held -= bytes;
  }
}
