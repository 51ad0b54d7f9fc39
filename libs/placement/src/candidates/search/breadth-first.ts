import { roundRobin } from './round-robin.js';

/**
 * upstream's breadth-first generation strategy: one candidate of each tree in turn (round
 * robin), so a cap or limit spreads over every viable root. With a cap, each tree is asked for
 * only its first few candidates, doubling the ask for trees that had more while the round robin
 * falls short of the cap: the first `cap` of the round robin of each tree's first k candidates
 * are the true ones as soon as there are `cap` of them, so no tree is worked out in full.
 * `keyOf` names candidates that may repeat across trees (sharing providers): the first is kept.
 */
export function* breadthFirst<Tree, C>(
  trees: readonly Tree[], cap: number | null, firstOf: (tree: Tree, limit: number | null) => Generator<void, C[]>,
  keyOf: (candidate: C) => string | undefined,
): Generator<void, C[]> {
  const found = trees.map(() => ({ candidates: [] as C[], exhausted: false }));
  let ask = cap === null ? null : Math.max(1, Math.ceil(cap / Math.max(1, trees.length)));
  for (;;) {
    for (const [i, tree] of found.entries()) {
      if (tree.exhausted) continue;
      tree.candidates = yield* firstOf(trees[i], ask);
      tree.exhausted = ask === null || tree.candidates.length < ask;
    }
    const merged = withoutRepeats(roundRobin(found.map((tree) => tree.candidates)), keyOf);
    if (cap === null || merged.length >= cap || found.every((tree) => tree.exhausted)) return cap === null ? merged : merged.slice(0, cap);
    ask = ask! * 2;
  }
}

function withoutRepeats<C>(candidates: C[], keyOf: (candidate: C) => string | undefined): C[] {
  const seen = new Set<string>();
  return candidates.filter((candidate) => {
    const key = keyOf(candidate);
    if (key === undefined) return true;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
