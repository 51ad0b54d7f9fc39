import { ProviderNode, ProviderIndex, SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { SharingAnchors } from './anchors.js';
import { Candidate } from './combine.js';
import { Explain } from './explain.js';
import { canProvide, CheckedGroup } from './group-context.js';
import { traitsMet } from './multi-provider.js';

export interface StreamOptions {
  readonly cap: number | null;
  readonly shuffle: (<T>(items: T[]) => T[]) | null;
}

/** The smallest index set every matching provider must be in: the walk starts there. */
function startingSet(index: ProviderIndex, checked: CheckedGroup): Iterable<ProviderNode> {
  const { group, inAggregates, treeRoot } = checked;
  const sets: { size: number; members: Iterable<ProviderNode> }[] = [];
  if (group.resources.length > 0) {
    if (treeRoot) {
      const tree = index.tree(treeRoot);
      sets.push({ size: tree.length, members: tree });
    } else for (const [rc] of group.resources) sets.push({ size: index.withClass(rc).size, members: index.withClass(rc) });
  }
  for (const anyOf of group.requiredTraits) if (anyOf.length === 1) sets.push({ size: index.withTrait(anyOf[0]).size, members: index.withTrait(anyOf[0]) });
  if (inAggregates) sets.push({ size: inAggregates.size, members: inAggregates });
  return sets.sort((a, b) => a.size - b.size)[0]?.members ?? [];
}

/**
 * A request of one group that single providers meet whole, the flat scheduler query, walked
 * provider by provider rather than set by set: each provider meets every filter of the group or
 * not (upstream's get_provider_ids_matching, in_tree ignored for a resourceless group as there),
 * and the walk stops at the cap, so limit=50 looks at few more than fifty providers. One provider
 * is one candidate, the same whichever root it anchors to, so it is listed once.
 */
export function streamOneGroup(
  index: ProviderIndex, checked: CheckedGroup, allowed: ReadonlySet<ProviderNode> | null, sharing: SharingAnchors,
  options: StreamOptions, explain: Explain,
): Candidate[] {
  const { group, label, inAggregates, treeRoot } = checked;
  const { suffix, resources, requiredTraits, forbiddenTraits, forbiddenAggregates } = group;
  const candidates: Candidate[] = [];
  // A resourceless group with no required trait or aggregate matches nothing upstream.
  if (resources.length === 0 && requiredTraits.length === 0 && !inAggregates) return candidates;
  const matches = (node: ProviderNode) =>
    resources.every(([rc, amount]) => canProvide(node, rc, amount))
    && (!treeRoot || resources.length === 0 || node.root === treeRoot)
    && traitsMet(requiredTraits, (t) => node.traits.has(t))
    && (!inAggregates || inAggregates.has(node))
    && !forbiddenAggregates.some((a) => node.aggregates.has(a))
    && !forbiddenTraits.some((t) => node.traits.has(t));
  const anchored = (node: ProviderNode) => !allowed || allowed.has(node.root)
    || (node.traits.has(SHARES_VIA_AGGREGATE) && sharing.of(node).some((anchor) => allowed.has(anchor)));
  const start = startingSet(index, checked);
  let examined = 0;
  for (const node of options.shuffle ? options.shuffle([...start]) : start) {
    if (options.cap !== null && candidates.length >= options.cap) break;
    examined++;
    if (!matches(node) || !anchored(node)) continue;
    candidates.push({ allocations: resources.length > 0 ? [{ provider: node, resources }] : [], mappings: [[suffix, [node]]] });
  }
  explain.record(`${label}: providers examined`, examined);
  explain.record('candidates', candidates.length);
  return candidates;
}
