import { badRequest, capacity } from '../../../../domain/src/index.js';
import { NameCatalog } from '../index/name-catalog.js';
import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import { isGranular, RequestGroup } from '../request.js';
import { Explain } from './explain.js';

/** A request group whose names exist and whose member_of and in_tree can match someone. */
export interface CheckedGroup {
  readonly group: RequestGroup;
  readonly label: string;
  readonly granular: boolean;
  /** Providers meeting every member_of, or null when the group has none. */
  readonly inAggregates: ReadonlySet<ProviderNode> | null;
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
  const inventory = node.state.inventories[rc];
  if (!inventory) return false;
  const used = node.state.usages[rc] ?? 0;
  return used + amount <= capacity(inventory)
    && inventory.min_unit <= amount && amount <= inventory.max_unit
    && amount % inventory.step_size === 0;
}

/** Providers in at least one aggregate of every any-of set (provider_ids_matching_aggregates). */
export function providersInAggregates(index: ProviderIndex, memberOf: ReadonlyArray<ReadonlyArray<string>>): Set<ProviderNode> {
  let result: Set<ProviderNode> | null = null;
  for (const anyOf of memberOf) {
    const union = new Set<ProviderNode>();
    for (const aggregate of anyOf) for (const node of index.inAggregate(aggregate)) if (!result || result.has(node)) union.add(node);
    result = union;
    if (result.size === 0) break;
  }
  return result ?? new Set();
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
  let inAggregates: Set<ProviderNode> | null = null;
  if (group.memberOf.length > 0) {
    inAggregates = providersInAggregates(index, group.memberOf);
    if (explain.record(`${label}: providers in member_of aggregates`, inAggregates.size) === 0) return null;
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
