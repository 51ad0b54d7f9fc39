import { snapshotsToDrop } from './snapshot-retention.js';

/** Snapshots every 100,000 events, newest first, as a serving process writes them. */
const every100k = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `s${count - i}`, events: (count - i) * 100_000 }));

describe('which candidate snapshots stay', () => {
  it('keeps everything while there are few', () => {
    expect(snapshotsToDrop(every100k(26))).toEqual([]);
  });

  it('always keeps the newest two and the oldest, and spreads the others evenly over the log', () => {
    let kept = every100k(26);
    for (let written = 27; written <= 400; written++) {
      kept = [{ id: `s${written}`, events: written * 100_000 }, ...kept];
      const dropped = new Set(snapshotsToDrop(kept));
      expect(dropped.has(`s${written}`) || dropped.has(`s${written - 1}`) || dropped.has('s1')).toBe(false);
      kept = kept.filter((snapshot) => !dropped.has(snapshot.id));
    }
    expect(kept).toHaveLength(26);
    const gaps = kept.slice(1).map((snapshot, i) => kept[i].events - snapshot.events);
    // 40 million events over 25 gaps: no gap grows much past an even share.
    expect(Math.max(...gaps)).toBeLessThanOrEqual(2 * (400 * 100_000) / 25);
  });

  it('honours a smaller count, never below the newest two and the oldest', () => {
    expect(snapshotsToDrop(every100k(5), 1)).toEqual(['s3', 's2']);
  });
});
