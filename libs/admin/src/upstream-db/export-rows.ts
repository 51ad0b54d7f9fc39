import {
  byTreeLevel, FIRST_CUSTOM_RESOURCE_CLASS_ID, STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS, UpstreamState,
} from '#domain/index.js';

/** Rows of upstream's tables, columns in the order of EXPORT_COLUMNS. */
export type TableRows = Readonly<Record<keyof typeof EXPORT_COLUMNS, unknown[][]>>;

/** Insert order: every row's references are written before it. */
export const EXPORT_COLUMNS = {
  resource_classes: ['id', 'name', 'created_at'],
  traits: ['id', 'name', 'created_at'],
  projects: ['id', 'external_id', 'created_at'],
  users: ['id', 'external_id', 'created_at'],
  consumer_types: ['id', 'name', 'created_at'],
  placement_aggregates: ['id', 'uuid', 'created_at'],
  resource_providers: ['id', 'uuid', 'name', 'generation', 'root_provider_id', 'parent_provider_id', 'created_at'],
  inventories: ['id', 'resource_provider_id', 'resource_class_id', 'total', 'reserved', 'min_unit', 'max_unit', 'step_size', 'allocation_ratio', 'created_at'],
  resource_provider_traits: ['resource_provider_id', 'trait_id', 'created_at'],
  resource_provider_aggregates: ['resource_provider_id', 'aggregate_id', 'created_at'],
  consumers: ['id', 'uuid', 'project_id', 'user_id', 'generation', 'consumer_type_id', 'created_at'],
  allocations: ['id', 'resource_provider_id', 'consumer_id', 'resource_class_id', 'used', 'created_at'],
} as const;

/** What the target already holds: upstream syncs its standard classes and traits on its first start. */
export interface ExistingNames {
  readonly classes: ReadonlyMap<string, number>;
  readonly traits: ReadonlyMap<string, number>;
}

/**
 * The rows that make upstream serve `state`. Times go into created_at (updated_at stays NULL), which
 * upstream's Last-Modified falls back to. Standard classes keep upstream's ids (their index in
 * os-resource-classes), custom ones are numbered from 10000, as upstream numbers them.
 */
export function exportRows(state: UpstreamState, existing: ExistingNames, time: (iso: string) => unknown): TableRows {
  const now = time(new Date().toISOString());
  // Standard names upstream has not synced yet are written only where used: upstream's own
  // os-resource-classes and os-traits, which may be older than ours, decide the rest on its start.
  const usedClasses = new Set(state.providers.flatMap((p) => Object.keys(p.inventories)));
  const usedTraits = new Set(state.providers.flatMap((p) => p.traits));
  const classIds = new Map(existing.classes);
  const classes: unknown[][] = [];
  STANDARD_RESOURCE_CLASSES.forEach((name, index) => {
    if (!classIds.has(name) && usedClasses.has(name)) { classIds.set(name, index); classes.push([index, name, now]); }
  });
  state.resourceClasses.forEach((rc, i) => {
    classIds.set(rc.name, FIRST_CUSTOM_RESOURCE_CLASS_ID + i);
    classes.push([FIRST_CUSTOM_RESOURCE_CLASS_ID + i, rc.name, time(rc.modifiedAt)]);
  });
  const traitIds = new Map(existing.traits);
  let nextTrait = Math.max(0, ...existing.traits.values()) + 1;
  const traits: unknown[][] = [];
  const addTrait = (name: string, at: unknown) => {
    if (traitIds.has(name)) return;
    traitIds.set(name, nextTrait);
    traits.push([nextTrait++, name, at]);
  };
  for (const name of STANDARD_TRAITS) if (usedTraits.has(name)) addTrait(name, now);
  for (const trait of state.traits) addTrait(trait.name, time(trait.modifiedAt));

  const numbered = (values: Iterable<string>) => new Map([...new Set(values)].map((value, i) => [value, i + 1]));
  const projects = numbered(state.consumers.map((c) => c.projectId));
  const users = numbered(state.consumers.map((c) => c.userId));
  const types = numbered(state.consumers.flatMap((c) => (c.consumerType === null ? [] : [c.consumerType])));
  const aggregates = numbered(state.providers.flatMap((p) => p.aggregates));
  const listed = (ids: Map<string, number>) => [...ids].map(([value, id]) => [id, value, now]);

  const providerIds = new Map<string, number>(), roots = new Map<string, number>();
  const providers: unknown[][] = [], inventories: unknown[][] = [], providerTraits: unknown[][] = [], providerAggregates: unknown[][] = [];
  for (const provider of byTreeLevel(state.providers).flat()) {
    const id = providerIds.size + 1;
    providerIds.set(provider.uuid, id);
    const parent = provider.parentUuid === null ? null : providerIds.get(provider.parentUuid)!;
    roots.set(provider.uuid, parent === null ? id : roots.get(provider.parentUuid!)!);
    const at = time(provider.modifiedAt);
    providers.push([id, provider.uuid, provider.name, provider.generation, roots.get(provider.uuid), parent, at]);
    for (const [rc, inv] of Object.entries(provider.inventories)) {
      inventories.push([inventories.length + 1, id, classIds.get(rc), inv.total, inv.reserved, inv.min_unit, inv.max_unit, inv.step_size,
        inv.allocation_ratio, time(provider.inventoriesModifiedAt ?? provider.modifiedAt)]);
    }
    for (const trait of provider.traits) providerTraits.push([id, traitIds.get(trait), at]);
    for (const aggregate of provider.aggregates) providerAggregates.push([id, aggregates.get(aggregate), at]);
  }
  const consumers: unknown[][] = [], allocations: unknown[][] = [];
  for (const consumer of state.consumers) {
    const at = time(consumer.modifiedAt);
    consumers.push([consumers.length + 1, consumer.uuid, projects.get(consumer.projectId), users.get(consumer.userId), consumer.generation,
      consumer.consumerType === null ? null : types.get(consumer.consumerType), at]);
    for (const [provider, resources] of Object.entries(consumer.allocations)) {
      for (const [rc, used] of Object.entries(resources)) {
        allocations.push([allocations.length + 1, providerIds.get(provider), consumer.uuid, classIds.get(rc), used, at]);
      }
    }
  }
  return {
    resource_classes: classes, traits, projects: listed(projects), users: listed(users), consumer_types: listed(types),
    placement_aggregates: listed(aggregates), resource_providers: providers, inventories,
    resource_provider_traits: providerTraits, resource_provider_aggregates: providerAggregates, consumers, allocations,
  };
}
