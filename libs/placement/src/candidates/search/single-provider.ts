import { ProviderIndex, ProviderNode, SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { AnchorFilter, SharingAnchors } from './anchors.js';
import { Explain } from './explain.js';
import { FirstSeen, GroupChoices } from './group-choices.js';
import { CheckedGroup } from './group-context.js';
import { groupMatcher } from './group-match.js';

/**
 * One choice per provider meeting the whole group, under its own root and under every root a
 * sharing provider lends to (upstream's _alloc_candidates_single_provider). Anchors outside
 * `allowed` (root_required) are dropped. Anchors are found in the order the starting set meets
 * them; an anchor's choices are its tree's providers, parents first, then those lent to it.
 */
export function singleProviderChoices(
  index: ProviderIndex, checked: CheckedGroup, allowed: AnchorFilter | null, sharing: SharingAnchors,
): GroupChoices {
  const { start, matches } = groupMatcher(index, checked);
  // Without sharing providers nobody lends to another root: skip the per-provider trait test.
  const lending = index.sharing.size > 0;
  const admitted = (anchor: ProviderNode) => !allowed || allowed.has(anchor);
  return {
    *anchors() {
      const seen = new FirstSeen();
      for (const node of start) {
        if (!matches(node)) continue;
        if (admitted(node.root) && seen.first(node.root)) yield node.root;
        if (!lending || !node.traits.has(SHARES_VIA_AGGREGATE)) continue;
        for (const anchor of sharing.of(node)) if (admitted(anchor) && seen.first(anchor)) yield anchor;
      }
    },
    at(anchor) {
      if (!admitted(anchor)) return null;
      const nodes: ProviderNode[] = [];
      for (const node of index.tree(anchor)) if (matches(node)) nodes.push(node);
      for (const node of sharing.lendersTo(anchor)) if (matches(node)) nodes.push(node);
      return nodes.length > 0 ? [nodes] : null;
    },
  };
}

/** The explain endpoint's counts for such a group: every provider of its starting set looked at. */
export function countSingleProviderChoices(
  index: ProviderIndex, checked: CheckedGroup, allowed: AnchorFilter | null, sharing: SharingAnchors, explain: Explain,
): void {
  const { start, matches } = groupMatcher(index, checked);
  const anchors = new FirstSeen();
  let examined = 0;
  let matching = 0;
  for (const node of start) {
    examined++;
    if (!matches(node)) continue;
    matching++;
    const lent = node.traits.has(SHARES_VIA_AGGREGATE) ? sharing.of(node) : [];
    for (const anchor of [node.root, ...lent]) if (!allowed || allowed.has(anchor)) anchors.first(anchor);
  }
  explain.record(`${checked.label}: providers examined`, examined);
  explain.record(`${checked.label}: providers meeting the whole group`, matching);
  explain.record(`${checked.label}: anchors`, anchors.size);
}
