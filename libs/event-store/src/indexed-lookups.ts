import { StreamLookup } from './port.js';

/**
 * The stream lookups (EventStore.streamsWith) every log store indexes: who had this parent, who
 * was in this aggregate, whose allocations named this project, as the log stood at a point (a
 * restore's scope, usage as of a moment by project). One list for both adapters: PostgreSQL
 * builds a partial index from each (postgres/event-store-schema.ts), KurrentDB writes an index
 * stream per value beside each append (kurrent/lookup-index.ts). `name` is part of both the
 * index's and the streams' names: it never changes for a stored log.
 */
export interface IndexedLookup {
  readonly name: string;
  readonly types: readonly string[];
  readonly field: string;
}

export const INDEXED_LOOKUPS: readonly IndexedLookup[] = [
  { name: 'parent', types: ['ResourceProviderCreated', 'ResourceProviderUpdated'], field: 'parent_provider_uuid' },
  { name: 'aggregates', types: ['AggregatesSet'], field: 'aggregates' },
  { name: 'project', types: ['ConsumerAllocationsReplaced'], field: 'project_id' },
];

/** The indexed lookup that answers `lookup`: the same field, and every type it asks among the index's. */
export function indexFor(lookups: readonly IndexedLookup[], lookup: Omit<StreamLookup, 'value'>): IndexedLookup | undefined {
  return lookups.find((index) => index.field === lookup.field && lookup.types.every((type) => index.types.includes(type)));
}

/** The strings an event's data holds at `field`: the value itself, or those of an array there. */
export function valuesAt(data: Record<string, unknown>, field: string): string[] {
  const value = data[field];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? [...new Set(value.filter((item): item is string => typeof item === 'string'))] : [];
}
