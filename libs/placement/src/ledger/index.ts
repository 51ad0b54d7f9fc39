export * from './age.js';
export * from './as-of.js';
export * from './as-of.queries.js';
export * from './audit.queries.js';
export * from './ledger-event.js';
export * from './event-owners.js';
export * from './ledger-feed.js';
export * from './position-token.js';
export * from './provider-claims.js';
export * from './replayer.js';
export * from './request-writes.js';
export * from './stream-history.query.js';
export * from './snapshots/stream-snapshot.js';
export * from './snapshots/snapshot-store.js';
export * from './snapshots/stream-states.js';
export * from './snapshots/folds.js';
export * from './snapshots/verify-snapshots.js';
import { StreamSnapshots } from './snapshots/snapshot-store.js';
import { StreamStates } from './snapshots/stream-states.js';
import { GetConsumerAllocationsAsOfHandler, GetProviderAllocationsAsOfHandler, GetProviderAsOfHandler, GetUsagesAsOfHandler } from './as-of.queries.js';
import { GetProviderClaimsHandler, GetRequestEventsHandler, GetStaleConsumersHandler } from './audit.queries.js';
import { LedgerFeed } from './ledger-feed.js';
import { EventOwners } from './event-owners.js';
import { LedgerReplayer } from './replayer.js';
import { GetStreamHistoryHandler } from './stream-history.query.js';

/** Everything the ledger registers with Nest: the feed, the replayer and the query handlers. */
export const LEDGER_PROVIDERS = [
  LedgerFeed, EventOwners, LedgerReplayer, StreamSnapshots, StreamStates, GetStreamHistoryHandler, GetProviderClaimsHandler, GetRequestEventsHandler, GetStaleConsumersHandler,
  GetProviderAsOfHandler, GetProviderAllocationsAsOfHandler, GetConsumerAllocationsAsOfHandler, GetUsagesAsOfHandler,
];
