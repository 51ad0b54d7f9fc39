import { Module } from '@nestjs/common';
import { GetProviderAggregatesHandler } from '#placement/aggregates/get-provider-aggregates.query.js';
import { AggregatesController } from './aggregates.controller.js';

/** The aggregates resource family: its controller and its query handler; the write runs through ChangeProviderTags. */
@Module({
  controllers: [AggregatesController],
  providers: [GetProviderAggregatesHandler],
})
export class AggregatesModule {}
