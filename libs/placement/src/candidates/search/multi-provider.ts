import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import { SharingAnchors } from './anchors.js';
import { Explain } from './explain.js';
import { GroupContext, providersInAny } from './group-context.js';
import { GroupChoices } from './single-provider.js';

/** Per anchor root, the providers able to give one class, in the order they were found. */
type ByAnchor = Map<ProviderNode, ProviderNode[]>;

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

/** Whether the providers of these levels together meet every any-of set: plain loops, once per tree. */
function levelsMeet(required: ReadonlyArray<ReadonlyArray<string>>, levels: readonly (readonly ProviderNode[])[]): boolean {
  for (const anyOf of required) {
    let met = false;
    for (let l = 0; l < levels.length && !met; l++) for (const node of levels[l]) if (hasAny(node, anyOf)) { met = true; break; }
    if (!met) return false;
  }
  return true;
}

/** The levels less the providers with a forbidden trait, or null once a level is left empty. */
function withoutTraits(levels: readonly ProviderNode[][], forbidden: readonly string[]): ProviderNode[][] | null {
  const usable = levels.map((nodes) => nodes.filter((n) => !forbidden.some((t) => n.traits.has(t))));
  return usable.some((nodes) => nodes.length === 0) ? null : usable;
}

/**
 * The unsuffixed group where several providers of a tree, or sharing providers, may each give
 * part of it (upstream's get_trees_matching_all): per class, the providers able to give it,
 * keyed by the root they would anchor to; member_of holds for a provider or its anchor, a
 * forbidden aggregate excludes both; only anchors able to give every class survive. Providers
 * with a forbidden trait can never be part of a candidate, so they are dropped here.
 * Trees are kept in the order the last class found them.
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
  const admits = (node: ProviderNode, anchor: ProviderNode) => (!allowed || allowed.has(anchor))
    && (!inAggregates || inAggregates(node) || inAggregates(anchor))
    && (!badAggregates || (!badAggregates.has(node) && !badAggregates.has(anchor)));
  let acc: Map<ProviderNode, ProviderNode[][]> | null = null;
  for (const [rc] of group.resources) {
    const able = ctx.withResource.get(rc)!;
    const byAnchor: ByAnchor = new Map();
    // A tree keeps the place its first able provider gave it, even if the filters drop that one.
    const add = (anchor: ProviderNode, node: ProviderNode) => {
      let nodes = byAnchor.get(anchor);
      if (!nodes) byAnchor.set(anchor, (nodes = []));
      if (admits(node, anchor)) nodes.push(node);
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
    const next: Map<ProviderNode, ProviderNode[][]> = new Map();
    for (const [anchor, nodes] of byAnchor) {
      const levels = acc ? acc.get(anchor) : [];
      if (!levels || nodes.length === 0) continue;
      levels.push(nodes);
      next.set(anchor, levels);
    }
    acc = next;
    if (explain.record(`${label}: trees able to give every class so far (${rc})`, acc.size) === 0) return none;
  }
  const forbidden = group.forbiddenTraits;
  const required = group.requiredTraits;
  const choices: GroupChoices = new Map();
  for (const [anchor, levels] of acc ?? []) {
    const usable = forbidden.length === 0 ? levels : withoutTraits(levels, forbidden);
    if (usable && levelsMeet(required, usable)) choices.set(anchor, usable);
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
