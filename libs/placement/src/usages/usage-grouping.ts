/** How GET /usages narrows and groups by consumer type (1.38), from its consumer_type parameter. */
export interface ConsumerTypeScope {
  /** undefined: every consumer; null: only consumers without a type; a name: only that type. */
  readonly only: string | null | undefined;
  /** 'all' folds every type into one group. */
  readonly groupAll: boolean;
}

/** Consumers without a type are reported, and filtered, as this (upstream's NULL_CONSUMER_TYPE_ALIAS). */
const UNKNOWN_CONSUMER_TYPE = 'unknown';
const ALL_CONSUMER_TYPES = 'all';

export function consumerTypeScope(param: string | undefined): ConsumerTypeScope {
  if (param === undefined) return { only: undefined, groupAll: false };
  if (param === ALL_CONSUMER_TYPES) return { only: undefined, groupAll: true };
  if (param === UNKNOWN_CONSUMER_TYPE) return { only: null, groupAll: false };
  return { only: param, groupAll: false };
}

/** What one project's (or user's) consumers of one type hold of one class. */
export interface TypedUsageRow {
  readonly consumer_type: string | null;
  readonly resource_class: string;
  readonly used: number;
  /** Distinct consumers of this type, whatever the class. */
  readonly consumer_count: number;
}

export type ClassUsages = Record<string, number>;

/** Before 1.38: one total per class, whatever the consumers' types. */
export function usagesByClass(rows: readonly TypedUsageRow[]): ClassUsages {
  const usages: ClassUsages = {};
  for (const row of rows) usages[row.resource_class] = (usages[row.resource_class] ?? 0) + row.used;
  return usages;
}

/**
 * From 1.38: per type, each class's total and the number of consumers. A consumer has exactly
 * one type, so the counts of several types add up to the count of their union (the 'all' group).
 */
export function usagesByConsumerType(rows: readonly TypedUsageRow[], groupAll: boolean): Record<string, ClassUsages> {
  const groups: Record<string, ClassUsages> = {};
  const counted = new Set<string | null>();
  for (const row of rows) {
    const key = groupAll ? ALL_CONSUMER_TYPES : row.consumer_type ?? UNKNOWN_CONSUMER_TYPE;
    const group = (groups[key] ??= { consumer_count: 0 });
    group[row.resource_class] = (group[row.resource_class] ?? 0) + row.used;
    if (!counted.has(row.consumer_type)) {
      counted.add(row.consumer_type);
      group.consumer_count += row.consumer_count;
    }
  }
  return groups;
}
