import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import { SharingAnchors } from './anchors.js';
import { Explain } from './explain.js';
import { GroupContext, providersInAny } from './group-context.js';
import { ByAnchor, GroupChoices } from './by-anchor.js';

/** Every any-of set met. Plain loops: this runs once per tree and once per combination. */
export function traitsMet(required: ReadonlyArray<ReadonlyArray<string>>, has: (trait: string) => boolean): boolean {
  for (const anyOf of required) {
    let met = false;
    for (const trait of anyOf) if (has(trait)) { met = true; break; }
    if (!met) return false;
  }
  return true;
}

const hasAny = (node: ProviderNode, traits: readonly string[]) => {
  for (const trait of traits) if (node.traits.has(trait)) return true;
  return false;
};

const inAll = (levels: readonly ByAnchor[], anchor: ProviderNode) => {
  for (const level of levels) if (!level.has(anchor)) return false;
  return true;
};

type Test = (node: ProviderNode) => boolean;

const everyLevel = (levels: readonly ByAnchor[], anchor: ProviderNode, test: Test) => {
  for (const level of levels) if (!level.some(anchor, test)) return false;
  return true;
};

const someLevel = (levels: readonly ByAnchor[], anchor: ProviderNode, test: Test) => {
  for (const level of levels) if (level.some(anchor, test)) return true;
  return false;
};

const none: GroupChoices = { size: 0, has: () => false, anchors: () => [], choices: () => [] };

/**
 * The unsuffixed group where several providers of a tree, or sharing providers, may each give
 * part of it (upstream's get_trees_matching_all): per class, the providers able to give it,
 * keyed by the root they would anchor to; member_of holds for a provider or its anchor, a
 * forbidden aggregate excludes both; only anchors able to give every class survive. Providers
 * with a forbidden trait can never be part of a candidate, so they are dropped, and those left
 * must together hold the required traits. Trees are kept in the order the last class found
 * them; a tree's levels are listed when the combination reaches it (ByAnchor).
 */
export function treeChoices(
  index: ProviderIndex, ctx: GroupContext, allowed: ReadonlySet<ProviderNode> | null, sharing: SharingAnchors, explain: Explain,
): GroupChoices {
  const { group, label, inAggregates, treeRoot } = ctx;
  const { forbiddenTraits: forbidden, requiredTraits: required } = group;
  if (required.length > 0 && !required.flat().some((t) => index.withTrait(t).size > 0)) {
    explain.record(`${label}: providers with any required trait`, 0);
    return none;
  }
  const badAggregates = group.forbiddenAggregates.length > 0 ? providersInAny(index, group.forbiddenAggregates) : null;
  const admits = (node: ProviderNode, anchor: ProviderNode) => (!allowed || allowed.has(anchor))
    && (!inAggregates || inAggregates(node) || inAggregates(anchor))
    && (!badAggregates || (!badAggregates.has(node) && !badAggregates.has(anchor)));
  const levels: ByAnchor[] = [];
  let found = new Set<ProviderNode>();
  for (const [rc] of group.resources) {
    const able = ctx.withResource.get(rc)!;
    const byAnchor = new ByAnchor();
    found = new Set();
    // A tree keeps the place its first able provider gave it, even if the filters drop that one.
    const add = (anchor: ProviderNode, node: ProviderNode) => {
      found.add(anchor);
      if (admits(node, anchor)) byAnchor.add(anchor, node);
    };
    for (const node of able) add(node.root, node);
    // in_tree keeps resources inside that tree, so sharing providers are not asked.
    if (treeRoot === null) {
      for (const node of index.sharing) {
        if (!able.has(node) || (inAggregates && !inAggregates(node))) continue;
        // Its own root already has it from the loop above.
        for (const anchor of sharing.of(node)) if (anchor !== node.root) add(anchor, node);
      }
    }
    levels.push(byAnchor);
    let reaching = 0;
    for (const anchor of byAnchor.anchors()) if (inAll(levels, anchor)) reaching++;
    if (explain.record(`${label}: trees able to give every class so far (${rc})`, reaching) === 0) return none;
  }
  // Plain loops over each tree's lists, no list made: the tests run for every tree.
  const usable: Test = (node) => forbidden.length === 0 || !hasAny(node, forbidden);
  const holds = required.map((anyOf): Test => (node) => usable(node) && hasAny(node, anyOf));
  const anchors = new Set<ProviderNode>();
  trees: for (const anchor of levels.length > 0 ? found : []) {
    if (!inAll(levels, anchor) || (forbidden.length > 0 && !everyLevel(levels, anchor, usable))) continue;
    for (const test of holds) if (!someLevel(levels, anchor, test)) continue trees;
    anchors.add(anchor);
  }
  explain.record(`${label}: trees left by the trait filters`, anchors.size);
  return {
    size: anchors.size,
    has: (anchor) => anchors.has(anchor),
    anchors: () => anchors,
    choices: (anchor) => levels.map((level) => (forbidden.length === 0 ? level.list(anchor) : level.list(anchor).filter(usable))),
  };
}

/** Whether any tree has one pick per class whose traits together meet every any-of set. */
export function anyCombination(choices: GroupChoices, required: ReadonlyArray<ReadonlyArray<string>>): boolean {
  if (required.length === 0) return choices.size > 0;
  for (const anchor of choices.anchors()) {
    const levels = choices.choices(anchor);
    const picked: ProviderNode[] = [];
    const search = (depth: number): boolean => {
      if (depth === levels.length) return traitsMet(required, (t) => picked.some((n) => n.traits.has(t)));
      for (const node of levels[depth]) {
        picked.push(node);
        const found = search(depth + 1);
        picked.pop();
        if (found) return true;
      }
      return false;
    };
    if (search(0)) return true;
  }
  return false;
}
