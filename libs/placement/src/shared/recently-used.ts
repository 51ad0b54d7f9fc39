/**
 * A map of at most `capacity` entries that drops the least recently used first. A Map iterates
 * in insertion order, so an entry read or written is re-inserted last and the first is the oldest.
 */
export class RecentlyUsed<K, V> {
  private readonly entries = new Map<K, V>();

  /** `dropped`: told of every value that leaves, replaced or pushed out, so what hangs on it can go too. */
  constructor(private readonly capacity: number, private readonly dropped?: (value: V) => void) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    const before = this.entries.get(key);
    this.entries.delete(key);
    this.entries.set(key, value);
    if (before !== undefined && before !== value) this.dropped?.(before);
    if (this.entries.size > this.capacity) {
      const [oldest, gone] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.dropped?.(gone);
    }
  }

  /** For an entry found stale: it goes now rather than when it is the oldest. */
  delete(key: K): void {
    const gone = this.entries.get(key);
    this.entries.delete(key);
    if (gone !== undefined) this.dropped?.(gone);
  }

  get size(): number {
    return this.entries.size;
  }
}
