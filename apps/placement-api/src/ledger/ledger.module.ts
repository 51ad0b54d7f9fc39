import { DynamicModule, Module } from '@nestjs/common';
import { LEDGER_PROVIDERS } from '#placement/ledger/index.js';
import { UNDO_PROVIDERS } from '#placement/undo/index.js';
import { LedgerAsOfController } from './as-of.controller.js';
import { LedgerAuditController } from './audit.controller.js';
import { FEED_SLOTS, LedgerFeedController } from './feed.controller.js';
import type { FeedLimits } from '#platform/config.js';
import { FeedSlots } from './feed-slots.js';
import { LedgerHistoryController } from './history.controller.js';
import { LedgerUndoController } from './undo.controller.js';

/** What only a ledger can answer, under /ledger/: history, the live feed, audits, time travel, and undoing an incident. */
@Module({})
export class LedgerModule {
  static forApp(feed: FeedLimits): DynamicModule {
    return {
      module: LedgerModule,
      controllers: [LedgerHistoryController, LedgerFeedController, LedgerAuditController, LedgerAsOfController, LedgerUndoController],
      providers: [...LEDGER_PROVIDERS, ...UNDO_PROVIDERS, { provide: FEED_SLOTS, useValue: new FeedSlots(feed) }],
    };
  }
}
