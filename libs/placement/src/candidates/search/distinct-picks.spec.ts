import { seededRandom } from '#test/support/seeded-random.js';
import { distinctPicksAtLeast } from './distinct-picks.js';

/** Every way to pick one of each level's providers, none twice, counted one by one. */
function counted(levels: readonly (readonly number[])[], taken = new Set<number>(), at = 0): number {
  if (at === levels.length) return 1;
  let ways = 0;
  for (const provider of levels[at]) {
    if (taken.has(provider)) continue;
    taken.add(provider);
    ways += counted(levels, taken, at + 1);
    taken.delete(provider);
  }
  return ways;
}

describe('distinctPicksAtLeast', () => {
  it('never counts more ways than there are, whichever providers the levels share', () => {
    const random = seededRandom(20261130);
    let exact = 0;
    for (let trial = 0; trial < 2000; trial++) {
      const pool = 1 + random.int(7);
      const levels = Array.from({ length: 1 + random.int(5) }, () => [...new Set(Array.from({ length: random.int(pool + 1) }, () => random.int(pool)))]);
      const ways = counted(levels);
      const sizes = levels.map((level) => level.length);
      const atLeast = distinctPicksAtLeast(sizes, Infinity);
      expect({ levels, atLeast: Math.min(atLeast, ways) }).toEqual({ levels, atLeast });
      if (atLeast === ways) exact++;
      // Stopped early, it says the same of whether the bound passes what is enough.
      const enough = random.int(30);
      expect({ levels, enough, past: distinctPicksAtLeast(sizes, enough) > enough }).toEqual({ levels, enough, past: atLeast > enough });
    }
    // Levels sharing one pool, as a wide tree's groups do, are counted exactly.
    expect(exact).toBeGreaterThan(500);
  });

  it('counts a wide tree\'s identical levels exactly, and stops once past what is enough', () => {
    expect(distinctPicksAtLeast([8, 8, 8, 8, 8, 8, 8, 8], Infinity)).toBe(40320);
    expect(distinctPicksAtLeast([3, 1, 2], Infinity)).toBe(1);
    expect(distinctPicksAtLeast([10, 10], Infinity)).toBe(90);
    expect(distinctPicksAtLeast([2, 2, 2], Infinity)).toBe(0);
    const tenByTen = distinctPicksAtLeast(Array(10).fill(10), 100_000);
    expect(tenByTen).toBeGreaterThan(100_000);
    expect(tenByTen).toBeLessThan(3_628_800);
  });
});
