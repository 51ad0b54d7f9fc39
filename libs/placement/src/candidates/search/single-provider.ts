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
    const levels = choices.get(anchor);
    if (levels) levels[0].push(node);
    else choices.set(anchor, [[node]]);
  };
  const { start, matches } = groupMatcher(index, checked);
  // Without sharing providers nobody lends to another root: skip the per-provider trait test.
  const lending = index.sharing.size > 0;
  let examined = 0;
  let matching = 0;
  for (const node of start) {
    examined++;
    if (!matches(node)) continue;
    matching++;
    if (!allowed || allowed.has(node.root)) add(node.root, node);
    if (!lending || !node.traits.has(SHARES_VIA_AGGREGATE)) continue;
    for (const anchor of sharing.of(node)) if (anchor !== node.root && (!allowed || allowed.has(anchor))) add(anchor, node);
  }
  explain.record(`${checked.label}: providers examined`, examined);
  explain.record(`${checked.label}: providers meeting the whole group`, matching);
  explain.record(`${checked.label}: anchors`, choices.size);
  return choices;
}
