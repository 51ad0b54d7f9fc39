import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore, PostgresEventStore } from '../../../../libs/event-store/src/index.js';
import { PlacementError } from '../platform/placement-error.js';
import { LedgerAsOfController } from './as-of.controller.js';
import { LedgerAuditController } from './audit.controller.js';
import { LedgerFeedController } from './feed.controller.js';
import { LedgerHistoryController } from './history.controller.js';

const LEDGER_CONTROLLERS: readonly unknown[] = [LedgerHistoryController, LedgerFeedController, LedgerAuditController, LedgerAsOfController];

export const LEDGER_NEEDS_POSTGRES_LOG =
  'The ledger endpoints read the event log in PostgreSQL; this service keeps its log in KurrentDB ' +
  '(PLACEMENT_EVENT_STORE=kurrentdb), where they are not available.';

/**
 * The ledger's queries (history, feed, audits, as_of replays) are SQL over es_events. With the
 * log in KurrentDB that table stays empty, so they would answer 404s and empty pages as if
 * nothing had happened: say plainly instead that this deployment does not offer them.
 */
@Injectable()
export class LedgerLogGuard implements CanActivate {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  canActivate(context: ExecutionContext): boolean {
    if (!LEDGER_CONTROLLERS.includes(context.getClass()) || this.store instanceof PostgresEventStore) return true;
    throw new PlacementError(501, LEDGER_NEEDS_POSTGRES_LOG);
  }
}
