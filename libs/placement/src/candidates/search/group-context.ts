import { badRequest } from '#domain/index.js';
import { NameCatalog } from '../index/name-catalog.js';
import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import { isGranular, RequestGroup } from '../request.js';
import { Explain } from './explain.js';

/** A request group whose names exist and whose member_of and in_tree can match someone. */
export interface CheckedGroup {
  readonly group: RequestGroup;
  readonly label: string;
  readonly granular: boolean;
  /** Whether a provider meets every member_of; null when the group has none. */
  readonly inAggregates: ((node: ProviderNode) => boolean) | null;
  /** in_tree's root, or null. */
  readonly treeRoot: ProviderNode | null;
}

/** What one request group narrowed the providers to, before any combination. */
export interface GroupContext extends CheckedGroup {
  /** class -> providers that can give the group's amount of it (capacity, units, tree). */
  readonly withResource: ReadonlyMap<string, ReadonlySet<ProviderNode>>;
}

/** upstream's capacity clause: room left, min_unit <= amount <= max_unit, a whole number of steps. */
export function canProvide(node: ProviderNode, rc: string, amount: number): boolean {
  const room = node.rooms.get(rc);
  return room !== undefined && amount >= room.min && amount <= room.max && amount % room.step === 0 && amount <= room.free;
}

/** In at least one aggregate of every any-of set (provider_ids_matching_aggregates, as a test). */
export function aggregateTest(memberOf: ReadonlyArray<ReadonlyArray<string>>): (node: ProviderNode) => boolean {
  return (node) => {
    for (const anyOf of memberOf) {
      let met = false;
      for (const aggregate of anyOf) if (node.aggregates.has(aggregate)) { met = true; break; }
      if (!met) return false;
    }
    return true;
  };
}

/** Whether any provider meets member_of: only the members of its smallest any-of set are looked at. */
function anyInAggregates(index: ProviderIndex, memberOf: ReadonlyArray<ReadonlyArray<string>>, test: (node: ProviderNode) => boolean): number {
  const sizes = memberOf.map((anyOf) => anyOf.reduce((sum, aggregate) => sum + index.inAggregate(aggregate).size, 0));
  const smallest = memberOf[sizes.indexOf(Math.min(...sizes))];
  for (const aggregate of smallest) for (const node of index.inAggregate(aggregate)) if (test(node)) return 1;
  return 0;
}

/** Providers in any of these aggregates. */
export function providersInAny(index: ProviderIndex, aggregates: readonly string[]): Set<ProviderNode> {
  const result = new Set<ProviderNode>();
  for (const aggregate of aggregates) for (const node of index.inAggregate(aggregate)) result.add(node);
  return result;
}

export function requireTraits(names: NameCatalog, traits: Iterable<string>): void {
  for (const trait of traits) if (!names.hasTrait(trait)) throw badRequest(`No such trait(s): ${trait}.`);
}

/**
 * The first half of upstream's RequestGroupSearchContext, in its order: classes must exist
 * (400), member_of must match someone, traits must exist (400), in_tree must exist. Null means
 * "no provider can match", which empties the whole answer.
 */
export function checkGroup(index: ProviderIndex, names: NameCatalog, group: RequestGroup, explain: Explain): CheckedGroup | null {
  const label = `group '${group.suffix}'`;
  for (const [rc] of group.resources) {
    if (!names.hasClass(rc)) throw badRequest(`Invalid resource class in resources parameter: No such resource class ${rc}.`);
  }
  let inAggregates: ((node: ProviderNode) => boolean) | null = null;
  if (group.memberOf.length > 0) {
    inAggregates = aggregateTest(group.memberOf);
    if (explain.record(`${label}: some provider meets member_of`, anyInAggregates(index, group.memberOf, inAggregates)) === 0) return null;
  }
  requireTraits(names, group.requiredTraits.flat());
  requireTraits(names, group.forbiddenTraits);
  let treeRoot: ProviderNode | null = null;
  if (group.inTree !== null) {
    treeRoot = index.get(group.inTree)?.root ?? null;
    if (explain.record(`${label}: in_tree provider found`, treeRoot ? 1 : 0) === 0) return null;
  }
  return { group, label, granular: isGranular(group), inAggregates, treeRoot };
}

/** The whole RequestGroupSearchContext: then every class must have a provider with room. */
export function resolveGroup(index: ProviderIndex, names: NameCatalog, group: RequestGroup, explain: Explain): GroupContext | null {
  const checked = checkGroup(index, names, group, explain);
  if (!checked) return null;
  const { label, treeRoot } = checked;
  const withResource = new Map<string, Set<ProviderNode>>();
  for (const [rc, amount] of group.resources) {
    const able = new Set<ProviderNode>();
    const pool = treeRoot ? index.tree(treeRoot) : index.withClass(rc);
    for (const node of pool) if (canProvide(node, rc, amount)) able.add(node);
    withResource.set(rc, able);
    if (explain.record(`${label}: providers with ${amount} ${rc} free`, able.size) === 0) return null;
  }
  return { ...checked, withResource };
}
