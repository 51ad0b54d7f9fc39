import { Module } from '@nestjs/common';
import { GetUsageOverTimeHandler } from '#placement/usage-over-time/get-usage-over-time.query.js';
import { UsageOverTimeController } from './usage-over-time.controller.js';

/** Usage over time (rm_usage_hours); the console (console/) charts it, also at the dashboard's old address. */
@Module({
  controllers: [UsageOverTimeController],
  providers: [GetUsageOverTimeHandler],
})
export class UsageOverTimeModule {}
