/** One provider's change at one tick of the index's clock (`Node`: the index's provider, provider-index.ts). */
export interface Change<Node> {
  readonly node: Node;
  /**
   * Only its usage went up (a claim): what it can give only shrank, so it meets no request now
   * that it did not meet before.
   */
  readonly shrank: boolean;
}

/** Ticks remembered: a scheduler asks each of its questions again within a few dozen claims. */
const REMEMBERED = 1024;

/**
 * The providers changed at the latest ticks of the index's clock, while nothing changed that
 * can reorder or regroup what a search walks (a provider joining, leaving or moving, its traits,
 * aggregates or classes): from these alone an answer kept at an earlier tick is brought up to
 * date (search/patch-walk.ts) instead of being searched for again. A change of that other kind
 * ends what the journal can tell about the ticks before it.
 */
export class ChangeJournal<Node> {
  private readonly ring: Change<Node>[] = [];
  /** The tick of the last change the journal cannot describe. */
  private reshaped = 0;
  private clock = 0;

  record(clock: number, change: Change<Node>): void {
    this.ring[clock % REMEMBERED] = change;
    this.clock = clock;
  }

  reshape(clock: number): void {
    this.reshaped = clock;
    this.clock = clock;
  }

  /** Every change after tick `version`, oldest first; null where the journal cannot tell them all. */
  since(version: number): Change<Node>[] | null {
    if (version < this.reshaped || version > this.clock || this.clock - version > REMEMBERED) return null;
    const changes: Change<Node>[] = [];
    for (let tick = version + 1; tick <= this.clock; tick++) changes.push(this.ring[tick % REMEMBERED]);
    return changes;
  }
}
