import { Module } from '@nestjs/common';
import { GetUsageOverTimeHandler } from '../../../../libs/placement/src/usage-over-time/get-usage-over-time.query.js';
import { DashboardController } from './dashboard/dashboard.controller.js';
import { UsageOverTimeController } from './usage-over-time.controller.js';

/** Usage over time (rm_usage_hours) and the dashboard page that charts it. */
@Module({
  controllers: [UsageOverTimeController, DashboardController],
  providers: [GetUsageOverTimeHandler],
})
export class UsageOverTimeModule {}
