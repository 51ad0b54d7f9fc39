import { ProviderIndex, ProviderNode, SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { SharingAnchors } from './anchors.js';
import { Explain } from './explain.js';
import { GroupContext, providersInAny } from './group-context.js';

/** anchor root -> choices per level; a level is one provider picked for part of a group. */
export type GroupChoices = Map<ProviderNode, ProviderNode[][]>;

/** Providers that each have, on their own, at least one trait of every any-of set. */
export function providersWithTraits(index: ProviderIndex, required: ReadonlyArray<ReadonlyArray<string>>): Set<ProviderNode> {
  const sets = required.map((anyOf) => {
    const union = new Set<ProviderNode>();
    for (const trait of anyOf) for (const node of index.withTrait(trait)) union.add(node);
    return union;
  }).sort((a, b) => a.size - b.size);
  const result = new Set<ProviderNode>();
  for (const node of sets[0] ?? []) if (sets.every((set) => set.has(node))) result.add(node);
  return result;
}

function providersWithAnyTrait(index: ProviderIndex, traits: readonly string[]): Set<ProviderNode> {
  const result = new Set<ProviderNode>();
  for (const trait of traits) for (const node of index.withTrait(trait)) result.add(node);
  return result;
}

function minus(set: Set<ProviderNode>, remove: Set<ProviderNode>): Set<ProviderNode> {
  for (const node of remove) set.delete(node);
  return set;
}

/**
 * The providers that alone meet the whole group (upstream's get_provider_ids_matching), in
 * its order: required traits, member_of, forbidden aggregates and traits, then each class.
 * Null when nothing matches. A resourceless group with no positive filter matches nothing,
 * and in_tree does not narrow a resourceless group: both as upstream.
 */
export function matchingProviders(index: ProviderIndex, ctx: GroupContext, explain: Explain): Set<ProviderNode> | null {
  const { group, label } = ctx;
  let filtered: Set<ProviderNode> | null = null;
  if (group.requiredTraits.length > 0) {
    filtered = providersWithTraits(index, group.requiredTraits);
    if (explain.record(`${label}: providers with the required traits`, filtered.size) === 0) return null;
  }
  if (ctx.inAggregates) {
    const inAggregates = ctx.inAggregates;
    filtered = filtered ? new Set([...filtered].filter((node) => inAggregates.has(node))) : new Set(inAggregates);
    if (explain.record(`${label}: after member_of`, filtered.size) === 0) return null;
  }
  const forbidden = new Set<ProviderNode>();
  for (const bad of [
    group.forbiddenAggregates.length > 0 ? providersInAny(index, group.forbiddenAggregates) : null,
    group.forbiddenTraits.length > 0 ? providersWithAnyTrait(index, group.forbiddenTraits) : null,
  ]) {
    if (!bad) continue;
    for (const node of bad) forbidden.add(node);
    if (filtered && explain.record(`${label}: after forbidden aggregates and traits`, minus(filtered, bad).size) === 0) return null;
  }
  for (const [rc] of group.resources) {
    const able = ctx.withResource.get(rc)!;
    if (filtered) filtered = new Set([...filtered].filter((node) => able.has(node)));
    else filtered = minus(new Set(able), forbidden);
    if (explain.record(`${label}: providers of every class so far (${rc})`, filtered.size) === 0) return null;
  }
  return filtered;
}

/**
 * One choice per matching provider under its own root, and under every root a sharing
 * provider lends to (upstream's _alloc_candidates_single_provider). Anchors outside
 * `allowed` (root_required) are dropped.
 */
export function singleProviderChoices(
  index: ProviderIndex, ctx: GroupContext, allowed: ReadonlySet<ProviderNode> | null, sharing: SharingAnchors, explain: Explain,
): GroupChoices {
  const choices: GroupChoices = new Map();
  const add = (anchor: ProviderNode, node: ProviderNode) => {
    if (allowed && !allowed.has(anchor)) return;
    const level = choices.get(anchor);
    if (level) level[0].push(node);
    else choices.set(anchor, [[node]]);
  };
  for (const node of matchingProviders(index, ctx, explain) ?? []) {
    add(node.root, node);
    if (!node.traits.has(SHARES_VIA_AGGREGATE)) continue;
    for (const anchor of sharing.of(node)) if (anchor !== node.root) add(anchor, node);
  }
  explain.record(`${ctx.label}: anchors`, choices.size);
  return choices;
}
