export * from './port.js';
export * from './postgres/postgres-event-store.js';
export * from './postgres/event-store-schema.js';
export * from './postgres/sql-client.js';
export * from './postgres/in-transaction.js';
export { CommitOutcomeUnknown } from './postgres/commit-outcome.js';
export { sharedTransactions } from './postgres/append-batches.js';
export { hasEventLog } from './postgres/log-presence.js';
export * from './postgres/jsonb-form.js';
export { statementName } from './postgres/prepared.js';
// Types only: the KurrentDB adapter itself is imported from ./kurrent/index.js, so that loading
// this index never loads the KurrentDB client and its native module.
export type { KurrentEventStore, KurrentEventStoreOptions } from './kurrent/kurrent-event-store.js';
export type { CatchUpHandlers, CatchUpOptions } from './kurrent/kurrent-subscription.js';
export { KURRENTDB_URL_PATTERN, redactUrl } from './kurrent/connection-string.js';
export * from './log-range.js';
