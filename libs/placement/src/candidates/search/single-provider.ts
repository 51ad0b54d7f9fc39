import { ProviderIndex, ProviderNode, SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { SharingAnchors } from './anchors.js';
import { Explain } from './explain.js';
import { CheckedGroup } from './group-context.js';
import { groupMatcher } from './group-match.js';

/** anchor root -> choices per level; a level is one provider picked for part of a group. */
export type GroupChoices = Map<ProviderNode, ProviderNode[][]>;

/**
 * One choice per provider meeting the whole group, under its own root and under every root a
 * sharing provider lends to (upstream's _alloc_candidates_single_provider). Anchors outside
 * `allowed` (root_required) are dropped.
 */
export function singleProviderChoices(
  index: ProviderIndex, checked: CheckedGroup, allowed: ReadonlySet<ProviderNode> | null, sharing: SharingAnchors, explain: Explain,
): GroupChoices {
  const choices: GroupChoices = new Map();
  const add = (anchor: ProviderNode, node: ProviderNode) => {
    if (allowed && !allowed.has(anchor)) return;
    const level = choices.get(anchor);
    if (level) level[0].push(node);
    else choices.set(anchor, [[node]]);
  };
  const { start, matches } = groupMatcher(index, checked);
  let examined = 0;
  let matching = 0;
  for (const node of start) {
    examined++;
    if (!matches(node)) continue;
    matching++;
    add(node.root, node);
    if (!node.traits.has(SHARES_VIA_AGGREGATE)) continue;
    for (const anchor of sharing.of(node)) if (anchor !== node.root) add(anchor, node);
  }
  explain.record(`${checked.label}: providers examined`, examined);
  explain.record(`${checked.label}: providers meeting the whole group`, matching);
  explain.record(`${checked.label}: anchors`, choices.size);
  return choices;
}
