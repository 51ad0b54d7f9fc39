import { ProviderIndex, ProviderNode, SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { SharingAnchors } from './anchors.js';
import { ByAnchor, GroupChoices } from './by-anchor.js';
import { Explain } from './explain.js';
import { CheckedGroup } from './group-context.js';
import { groupMatcher } from './group-match.js';

/**
 * One choice per provider meeting the whole group, under its own root and under every root a
 * sharing provider lends to (upstream's _alloc_candidates_single_provider). Anchors outside
 * `allowed` (root_required) are dropped. Each tree's choices are listed when the combination
 * reaches it (ByAnchor).
 */
export function singleProviderChoices(
  index: ProviderIndex, checked: CheckedGroup, allowed: ReadonlySet<ProviderNode> | null, sharing: SharingAnchors, explain: Explain,
): GroupChoices {
  const lists = new ByAnchor();
  const { start, matches } = groupMatcher(index, checked);
  // Without sharing providers nobody lends to another root: skip the per-provider trait test.
  const lending = index.sharing.size > 0;
  let examined = 0;
  let matching = 0;
  for (const node of start) {
    examined++;
    if (!matches(node)) continue;
    matching++;
    if (!allowed || allowed.has(node.root)) lists.add(node.root, node);
    if (!lending || !node.traits.has(SHARES_VIA_AGGREGATE)) continue;
    for (const anchor of sharing.of(node)) if (anchor !== node.root && (!allowed || allowed.has(anchor))) lists.add(anchor, node);
  }
  explain.record(`${checked.label}: providers examined`, examined);
  explain.record(`${checked.label}: providers meeting the whole group`, matching);
  explain.record(`${checked.label}: anchors`, lists.size);
  return { size: lists.size, has: (anchor) => lists.has(anchor), anchors: () => lists.anchors(), choices: (anchor) => [lists.list(anchor)] };
}
