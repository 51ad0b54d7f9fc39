/**
 * At least how many ways there are to pick one provider per level, no provider twice, where
 * level i may pick any of `sizes[i]` providers: taken from the fewest choices up, the level
 * placed k-th has at least its own count less the k-1 already taken left, whatever they were.
 * Stops counting once past `enough`, so a wide tree's millions cost a few multiplications.
 */
export function distinctPicksAtLeast(sizes: readonly number[], enough: number): number {
  const ascending = [...sizes].sort((a, b) => a - b);
  let ways = 1;
  for (let placed = 0; placed < ascending.length && ways <= enough; placed++) ways *= Math.max(0, ascending[placed] - placed);
  return ways;
}
