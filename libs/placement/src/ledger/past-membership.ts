import { LogPoint, StreamLookup } from '#event-store/index.js';

/**
 * Who belonged where at a past point, as the ledger asks the log per request (a restore's scope,
 * usage by project as of a moment). Each is a stream lookup the log must index: a request never
 * reads the whole history (past-membership.spec.ts holds them to the indexed ones).
 */
export const PAST_MEMBERSHIP = {
  /** Providers created under, or moved under, a parent. */
  childrenOf: { types: ['ResourceProviderCreated', 'ResourceProviderUpdated'], field: 'parent_provider_uuid' },
  /** Providers whose aggregates once held the aggregate. */
  membersOfAggregate: { types: ['AggregatesSet'], field: 'aggregates' },
  /** Consumers whose allocations once named the project. */
  consumersOfProject: { types: ['ConsumerAllocationsReplaced'], field: 'project_id' },
} as const satisfies Record<string, Omit<StreamLookup, 'value' | 'until'>>;

/** The lookup for `value` up to `until`. */
export const pastMembers = (kind: keyof typeof PAST_MEMBERSHIP, value: string, until: LogPoint): StreamLookup =>
  ({ ...PAST_MEMBERSHIP[kind], value, until });
