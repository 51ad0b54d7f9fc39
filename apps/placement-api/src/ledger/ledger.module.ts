import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { LEDGER_PROVIDERS } from '../../../../libs/placement/src/ledger/index.js';
import { LedgerAsOfController } from './as-of.controller.js';
import { LedgerAuditController } from './audit.controller.js';
import { LedgerFeedController } from './feed.controller.js';
import { LedgerHistoryController } from './history.controller.js';
import { LedgerLogGuard } from './ledger-log-guard.js';

/** What only a ledger can answer, under /ledger/: history, the live feed, audits and time travel. */
@Module({
  controllers: [LedgerHistoryController, LedgerFeedController, LedgerAuditController, LedgerAsOfController],
  providers: [...LEDGER_PROVIDERS, { provide: APP_GUARD, useClass: LedgerLogGuard }],
})
export class LedgerModule {}
