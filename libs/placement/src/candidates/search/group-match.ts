import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import { canProvide, CheckedGroup } from './group-context.js';

/** Which providers meet a whole group alone: where to start looking, and the test. */
export interface GroupMatcher {
  /** Every matching provider is in here: the smallest index set the group implies. */
  readonly start: Iterable<ProviderNode>;
  readonly matches: (node: ProviderNode) => boolean;
}

function startingSet(index: ProviderIndex, checked: CheckedGroup): Iterable<ProviderNode> {
  const { group, treeRoot } = checked;
  const sets: { size: number; members: Iterable<ProviderNode> }[] = [];
  if (group.resources.length > 0) {
    if (treeRoot) {
      const tree = index.tree(treeRoot);
      sets.push({ size: tree.length, members: tree });
    } else for (const [rc] of group.resources) sets.push({ size: index.withClass(rc).size, members: index.withClass(rc) });
  }
  for (const anyOf of group.requiredTraits) if (anyOf.length === 1) sets.push({ size: index.withTrait(anyOf[0]).size, members: index.withTrait(anyOf[0]) });
  for (const anyOf of group.memberOf) if (anyOf.length === 1) sets.push({ size: index.inAggregate(anyOf[0]).size, members: index.inAggregate(anyOf[0]) });
  return sets.sort((a, b) => a.size - b.size)[0]?.members ?? [];
}

/**
 * upstream's get_provider_ids_matching as one test per provider: room for every class (inside
 * in_tree), every required any-of set, every member_of, no forbidden aggregate or trait, all on
 * the provider itself. As upstream, a resourceless group with no required trait or member_of
 * matches nothing, and in_tree does not narrow a resourceless group.
 */
export function groupMatcher(index: ProviderIndex, checked: CheckedGroup): GroupMatcher {
  const { group, inAggregates, treeRoot } = checked;
  const { resources, requiredTraits, forbiddenTraits, forbiddenAggregates } = group;
  if (resources.length === 0 && requiredTraits.length === 0 && !inAggregates) return { start: [], matches: () => false };
  // Plain loops: this runs once per provider of the deployment on the scheduler's hot path.
  const matches = (node: ProviderNode): boolean => {
    for (let i = 0; i < resources.length; i++) if (!canProvide(node, resources[i][0], resources[i][1])) return false;
    if (treeRoot && resources.length > 0 && node.root !== treeRoot) return false;
    const { traits, aggregates } = node;
    for (const anyOf of requiredTraits) {
      let met = false;
      for (const trait of anyOf) if (traits.has(trait)) { met = true; break; }
      if (!met) return false;
    }
    if (inAggregates && !inAggregates(node)) return false;
    for (const aggregate of forbiddenAggregates) if (aggregates.has(aggregate)) return false;
    for (const trait of forbiddenTraits) if (traits.has(trait)) return false;
    return true;
  };
  return { start: startingSet(index, checked), matches };
}
