import { Module } from '@nestjs/common';
import { LEDGER_PROVIDERS } from '#placement/ledger/index.js';
import { LedgerAsOfController } from './as-of.controller.js';
import { LedgerAuditController } from './audit.controller.js';
import { LedgerFeedController } from './feed.controller.js';
import { LedgerHistoryController } from './history.controller.js';

/** What only a ledger can answer, under /ledger/: history, the live feed, audits and time travel. */
@Module({
  controllers: [LedgerHistoryController, LedgerFeedController, LedgerAuditController, LedgerAsOfController],
  providers: [...LEDGER_PROVIDERS],
})
export class LedgerModule {}
