import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import { SharingAnchors } from './anchors.js';
import { Explain } from './explain.js';
import { GroupContext, providersInAny } from './group-context.js';
import { GroupChoices } from './single-provider.js';

type ByAnchor = Map<ProviderNode, Set<ProviderNode>>;

function add(byAnchor: ByAnchor, anchor: ProviderNode, node: ProviderNode): void {
  const set = byAnchor.get(anchor);
  if (set) set.add(node);
  else byAnchor.set(anchor, new Set([node]));
}

function keep(byAnchor: ByAnchor, test: (node: ProviderNode, anchor: ProviderNode) => boolean): void {
  for (const [anchor, nodes] of byAnchor) {
    for (const node of nodes) if (!test(node, anchor)) nodes.delete(node);
    if (nodes.size === 0) byAnchor.delete(anchor);
  }
}

export function traitsMet(required: ReadonlyArray<ReadonlyArray<string>>, has: (trait: string) => boolean): boolean {
  return required.every((anyOf) => anyOf.some(has));
}

/**
 * The unsuffixed group where several providers of a tree, or sharing providers, may each give
 * part of it (upstream's get_trees_matching_all): per class, the providers able to give it,
 * keyed by the root they would anchor to; member_of holds for a provider or its anchor, a
 * forbidden aggregate excludes both; only anchors able to give every class survive. Providers
 * with a forbidden trait can never be part of a candidate, so they are dropped here.
 */
export function treeChoices(
  index: ProviderIndex, ctx: GroupContext, allowed: ReadonlySet<ProviderNode> | null, sharing: SharingAnchors, explain: Explain,
): GroupChoices {
  const { group, label, inAggregates, treeRoot } = ctx;
  const none: GroupChoices = new Map();
  if (group.requiredTraits.length > 0 && !group.requiredTraits.flat().some((t) => index.withTrait(t).size > 0)) {
    explain.record(`${label}: providers with any required trait`, 0);
    return none;
  }
  const badAggregates = group.forbiddenAggregates.length > 0 ? providersInAny(index, group.forbiddenAggregates) : null;
  let acc: Map<ProviderNode, ProviderNode[][]> | null = null;
  for (const [rc] of group.resources) {
    const able = ctx.withResource.get(rc)!;
    const byAnchor: ByAnchor = new Map();
    for (const node of able) add(byAnchor, node.root, node);
    // in_tree keeps resources inside that tree, so sharing providers are not asked.
    if (treeRoot === null) {
      for (const node of index.sharing) {
        if (!able.has(node) || (inAggregates && !inAggregates(node))) continue;
        for (const anchor of sharing.of(node)) add(byAnchor, anchor, node);
      }
    }
    if (allowed) keep(byAnchor, (_node, anchor) => allowed.has(anchor));
    if (inAggregates) keep(byAnchor, (node, anchor) => inAggregates(node) || inAggregates(anchor));
    if (badAggregates) keep(byAnchor, (node, anchor) => !badAggregates.has(node) && !badAggregates.has(anchor));
    const next: Map<ProviderNode, ProviderNode[][]> = new Map();
    for (const [anchor, nodes] of byAnchor) {
      const levels = acc ? acc.get(anchor) : [];
      if (levels) next.set(anchor, [...levels, [...nodes]]);
    }
    acc = next;
    if (explain.record(`${label}: trees able to give every class so far (${rc})`, acc.size) === 0) return none;
  }
  const forbidden = group.forbiddenTraits;
  const required = group.requiredTraits;
  const choices: GroupChoices = new Map();
  for (const [anchor, levels] of acc ?? []) {
    const usable = forbidden.length === 0 ? levels : levels.map((nodes) => nodes.filter((n) => !forbidden.some((t) => n.traits.has(t))));
    if (usable.some((nodes) => nodes.length === 0)) continue;
    if (!traitsMet(required, (t) => usable.some((nodes) => nodes.some((n) => n.traits.has(t))))) continue;
    choices.set(anchor, usable);
  }
  explain.record(`${label}: trees left by the trait filters`, choices.size);
  return choices;
}

/** Whether any tree has one pick per class whose traits together meet every any-of set. */
export function anyCombination(choices: GroupChoices, required: ReadonlyArray<ReadonlyArray<string>>): boolean {
  if (required.length === 0) return choices.size > 0;
  for (const levels of choices.values()) {
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
