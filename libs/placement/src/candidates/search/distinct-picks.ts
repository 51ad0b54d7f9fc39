/**
 * At least how many ways there are to pick one provider per level, no provider twice, where
 * level i may pick any of `sizes[i]` providers: taken from the fewest choices up, the level
 * placed k-th has at least its own count less the k-1 already taken left, whatever they were.
 * Stops multiplying once past `enough` (none of the factors left is zero by then), so a wide
 * tree's millions cost a few multiplications.
 */
export function distinctPicksAtLeast(sizes: readonly number[], enough: number): number {
  const ascending = [...sizes].sort((a, b) => a - b);
  if (ascending.some((size, placed) => size <= placed)) return 0;
  let ways = 1;
  for (let placed = 0; placed < ascending.length && ways <= enough; placed++) ways *= ascending[placed] - placed;
  return ways;
}
