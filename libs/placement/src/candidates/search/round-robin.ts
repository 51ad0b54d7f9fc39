/**
 * upstream's util.roundrobin (breadth-first generation): the first item of each list, then the
 * second of each, and so on; a list that runs out drops out and the others keep their turns.
 */
export function roundRobin<T>(lists: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let round = 0; round < longest; round++) {
    for (const list of lists) if (round < list.length) out.push(list[round]);
  }
  return out;
}
