import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import { AnchorFilter, SharingAnchors } from './anchors.js';
import { Explain } from './explain.js';
import { FirstSeen, GroupChoices, NO_CHOICES } from './group-choices.js';
import { canProvide, CheckedGroup, providersInAny } from './group-context.js';

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

type Test = (node: ProviderNode) => boolean;

export interface TreeChoices extends GroupChoices {
  /** How many of the group's classes, in query order, the anchor can give before one it cannot. */
  classesMet(anchor: ProviderNode): number;
}

/** No tree has a provider with any of the required traits: nothing else is looked at. */
const NO_TREES: TreeChoices = { ...NO_CHOICES, classesMet: () => 0 };
/** A group asking for no class spreads over no tree. */
const NO_CLASSES: TreeChoices = { ...NO_CHOICES, classesMet: () => 0 };

/**
 * The unsuffixed group where several providers of a tree, or sharing providers, may each give
 * part of it (upstream's get_trees_matching_all), worked out per anchor root: per class, the
 * providers of its tree and those lent to it that can give the group's amount; member_of holds
 * for a provider or its anchor, a forbidden aggregate excludes both. Providers with a forbidden
 * trait can never be part of a candidate, so they are dropped, and those left must together be
 * able to hold the required traits. Anchors are found in the order the last class's providers
 * meet them, even where the filters then drop the provider that found one.
 */
export function treeChoices(
  index: ProviderIndex, checked: CheckedGroup, allowed: AnchorFilter | null, sharing: SharingAnchors, explain: Explain,
): TreeChoices {
  const { group, label, inAggregates, treeRoot } = checked;
  const { forbiddenTraits: forbidden, requiredTraits: required, resources } = group;
  if (required.length > 0 && !required.flat().some((t) => index.withTrait(t).size > 0)) {
    explain.record(`${label}: providers with any required trait`, 0);
    return NO_TREES;
  }
  if (resources.length === 0) return NO_CLASSES;
  const badAggregates = group.forbiddenAggregates.length > 0 ? providersInAny(index, group.forbiddenAggregates) : null;
  const admits = (node: ProviderNode, anchor: ProviderNode) => (!inAggregates || inAggregates(node) || inAggregates(anchor))
    && (!badAggregates || (!badAggregates.has(node) && !badAggregates.has(anchor)));
  const usable: Test = (node) => forbidden.length === 0 || !hasAny(node, forbidden);
  const holds = required.map((anyOf): Test => (node) => usable(node) && hasAny(node, anyOf));
  /** Per class, the providers able to give it at the anchor; null as soon as one class has none. */
  const levelsAt = (anchor: ProviderNode, upTo = resources.length): ProviderNode[][] | null => {
    // in_tree keeps resources inside that tree, so sharing providers are not asked.
    if ((treeRoot && anchor !== treeRoot) || (allowed && !allowed.has(anchor))) return null;
    const tree = index.tree(anchor);
    const lenders = treeRoot ? [] : sharing.lendersTo(anchor);
    const levels: ProviderNode[][] = [];
    for (let i = 0; i < upTo; i++) {
      const [rc, amount] = resources[i];
      const level: ProviderNode[] = [];
      for (const node of tree) if (canProvide(node, rc, amount) && admits(node, anchor)) level.push(node);
      for (const node of lenders) {
        if (canProvide(node, rc, amount) && (!inAggregates || inAggregates(node)) && admits(node, anchor)) level.push(node);
      }
      if (level.length === 0) return null;
      levels.push(level);
    }
    return levels;
  };
  const at = (anchor: ProviderNode): ProviderNode[][] | null => {
    const levels = levelsAt(anchor);
    if (!levels || (forbidden.length > 0 && !levels.every((level) => level.some(usable)))) return null;
    for (const test of holds) if (!levels.some((level) => level.some(test))) return null;
    return forbidden.length === 0 ? levels : levels.map((level) => level.filter(usable));
  };
  const classesMet = (anchor: ProviderNode) => {
    for (let upTo = resources.length; upTo > 0; upTo--) if (levelsAt(anchor, upTo)) return upTo;
    return 0;
  };
  return { anchors: () => anchorsFound(index, checked, sharing, resources.length - 1), at, classesMet };
}

/**
 * The explain endpoint's counts for such a group, over every tree: how many can give each class
 * so far, then how many the trait filters leave. Zero trees ends the counting as it ends the search.
 */
export function countTreeChoices(index: ProviderIndex, checked: CheckedGroup, choices: TreeChoices, sharing: SharingAnchors, explain: Explain): void {
  const { label, group: { resources } } = checked;
  if (choices === NO_TREES) return;
  if (choices === NO_CLASSES) {
    explain.record(`${label}: trees left by the trait filters`, 0);
    return;
  }
  // Every tree able to give one class so far is among those able to give the first.
  const trees = [...anchorsFound(index, checked, sharing, 0)];
  const met = trees.map((anchor) => choices.classesMet(anchor));
  for (let i = 0; i < resources.length; i++) {
    if (explain.record(`${label}: trees able to give every class so far (${resources[i][0]})`, met.filter((n) => n > i).length) === 0) return;
  }
  explain.record(`${label}: trees left by the trait filters`, trees.filter((anchor) => choices.at(anchor) !== null).length);
}

/**
 * The roots the providers able to give one of the group's classes anchor to, each once: their
 * own roots in the index's order, then the roots sharing providers lend to.
 */
function* anchorsFound(index: ProviderIndex, checked: CheckedGroup, sharing: SharingAnchors, at: number): Generator<ProviderNode> {
  const { group: { resources }, inAggregates, treeRoot } = checked;
  const [rc, amount] = resources[at];
  const seen = new FirstSeen();
  for (const node of treeRoot ? index.tree(treeRoot) : index.withClass(rc)) {
    if (canProvide(node, rc, amount) && seen.first(node.root)) yield node.root;
  }
  if (treeRoot) return;
  for (const node of index.sharing) {
    if (!canProvide(node, rc, amount) || (inAggregates && !inAggregates(node))) continue;
    for (const anchor of sharing.of(node)) if (anchor !== node.root && seen.first(anchor)) yield anchor;
  }
}

/** Whether one pick per class of a tree's levels has traits that together meet every any-of set. */
export function combinable(levels: readonly ProviderNode[][], required: ReadonlyArray<ReadonlyArray<string>>): boolean {
  if (required.length === 0) return true;
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
  return search(0);
}
