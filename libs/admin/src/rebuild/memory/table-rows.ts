import { STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from '#domain/index.js';
import { orderedLines } from '#domain/consumer/index.js';
import { ReadModelMemory } from '#projections/runner/read-model-memory.js';

/** One table's rows, each an array in `columns` order. */
export interface TableRows {
  readonly table: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

/** A sequence the replays spent: the rebuilt schema continues from `next`. */
export interface SequenceValue {
  readonly name: string;
  readonly next: number;
}

/** The final rows of every table the in-memory replays keep (custom names only; built-in ones are seeded). */
export function memoryTables(memory: ReadModelMemory): TableRows[] {
  const providers: unknown[][] = [], inventories: unknown[][] = [], traits: unknown[][] = [], aggregates: unknown[][] = [];
  for (const p of memory.providers.values()) {
    providers.push([p.uuid, p.name, p.generation, p.parent, p.root, p.createdAt, p.updatedAt]);
  }
  for (const [uuid, byClass] of memory.inventories) {
    for (const [rc, i] of byClass) {
      inventories.push([uuid, rc, i.total, i.reserved, i.min_unit, i.max_unit, i.step_size, i.allocation_ratio, i.createdAt, i.updatedAt]);
    }
  }
  for (const [uuid, names] of memory.providerTraits) for (const name of names) traits.push([uuid, name]);
  for (const [uuid, uuids] of memory.providerAggregates) for (const aggregate of uuids) aggregates.push([uuid, aggregate]);
  const consumers: unknown[][] = [], allocations: unknown[][] = [];
  for (const [uuid, c] of memory.consumers) {
    consumers.push([uuid, c.projectId, c.userId, c.consumerType, c.generation, c.createdAt, c.updatedAt]);
  }
  for (const [consumer, { allocations: byProvider, order, at }] of memory.holdings) {
    orderedLines(byProvider, order).forEach(({ provider, resourceClass, used }, position) => {
      allocations.push([consumer, provider, resourceClass, used, at, at, position]);
    });
  }
  const classes = [...memory.customClasses].map(([name, c]) => [name, c.id, true, c.createdAt, c.updatedAt]);
  const customTraits = [...memory.customTraits].map(([name, at]) => [name, true, at, null]);
  return [
    { table: 'rm_resource_providers', columns: ['uuid', 'name', 'generation', 'parent_provider_uuid', 'root_provider_uuid', 'created_at', 'updated_at'], rows: providers },
    { table: 'rm_inventories', columns: ['provider_uuid', 'resource_class', 'total', 'reserved', 'min_unit', 'max_unit', 'step_size', 'allocation_ratio', 'created_at', 'updated_at'], rows: inventories },
    { table: 'rm_provider_traits', columns: ['provider_uuid', 'trait'], rows: traits },
    { table: 'rm_provider_aggregates', columns: ['provider_uuid', 'aggregate_uuid'], rows: aggregates },
    { table: 'rm_resource_classes', columns: ['name', 'id', 'custom', 'created_at', 'updated_at'], rows: classes },
    { table: 'rm_traits', columns: ['name', 'custom', 'created_at', 'updated_at'], rows: customTraits },
    { table: 'rm_consumers', columns: ['uuid', 'project_id', 'user_id', 'consumer_type', 'generation', 'created_at', 'updated_at'], rows: consumers },
    { table: 'rm_allocations', columns: ['consumer_uuid', 'provider_uuid', 'resource_class', 'used', 'created_at', 'updated_at', 'position'], rows: allocations },
  ];
}

export function memorySequences(memory: ReadModelMemory): SequenceValue[] {
  return [{ name: 'rm_custom_resource_class_ids', next: memory.nextClassId }];
}

/**
 * The built-in names as the start-up seed writes them, for comparing with the live tables. A
 * standard trait's created_at is the time of the first start, which no event records: the
 * live value is taken as given.
 */
export function withStandardNames(tables: TableRows[], standardTraitTimes: ReadonlyMap<string, Date | null>): TableRows[] {
  return tables.map((t) => {
    if (t.table === 'rm_resource_classes') {
      return { ...t, rows: [...STANDARD_RESOURCE_CLASSES.map((name, index) => [name, index, false, null, null]), ...t.rows] };
    }
    if (t.table === 'rm_traits') {
      return { ...t, rows: [...STANDARD_TRAITS.map((name) => [name, false, standardTraitTimes.get(name) ?? null, null]), ...t.rows] };
    }
    return t;
  });
}
