import { ProviderIndex, ProviderNode, SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { SharingAnchors } from './anchors.js';
import { Explain } from './explain.js';
import { CheckedGroup } from './group-context.js';
import { GroupAnchors, groupAnchors, Lent } from './group-anchors.js';
import { groupMatcher } from './group-match.js';

/**
 * One choice per provider meeting the whole group, under its own root and under every root a
 * sharing provider lends to (upstream's _alloc_candidates_single_provider). Anchors outside
 * `allowed` (root_required) are dropped. The pass tests every provider of the starting set, so
 * the counts are exact; an anchor's choices are its tree's matching providers and those lent
 * to it, in the starting set's order, as the pass met them.
 */
export function singleProviderChoices(
  index: ProviderIndex, checked: CheckedGroup, allowed: ReadonlySet<ProviderNode> | null, sharing: SharingAnchors, explain: Explain,
): GroupAnchors {
  const { start, matches } = groupMatcher(index, checked);
  const anchors = new Set<ProviderNode>();
  const lent = new Lent();
  // Without sharing providers nobody lends to another root: skip the per-provider trait test.
  const lending = index.sharing.size > 0;
  let examined = 0;
  let matching = 0;
  for (const node of start) {
    examined++;
    if (!matches(node)) continue;
    matching++;
    if (!allowed || allowed.has(node.root)) anchors.add(node.root);
    if (!lending || !node.traits.has(SHARES_VIA_AGGREGATE)) continue;
    for (const anchor of sharing.of(node)) {
      if (anchor === node.root || (allowed && !allowed.has(anchor))) continue;
      anchors.add(anchor);
      lent.add(anchor, node);
    }
  }
  explain.record(`${checked.label}: providers examined`, examined);
  explain.record(`${checked.label}: providers meeting the whole group`, matching);
  explain.record(`${checked.label}: anchors`, anchors.size);
  return groupAnchors(anchors, (anchor) => {
    const found = [...index.tree(anchor).filter(matches), ...lent.to(anchor)];
    if (found.length > 1) found.sort((a, b) => start.rank(a) - start.rank(b));
    return [found];
  });
}
