import { Module } from '@nestjs/common';
import { GetProviderUsagesHandler } from '#placement/usages/get-provider-usages.query.js';
import { GetTotalUsagesHandler } from '#placement/usages/get-total-usages.query.js';
import { UsagesController } from './usages.controller.js';

/** Usages: read-only views over the allocations and consumers read models. */
@Module({
  controllers: [UsagesController],
  providers: [GetProviderUsagesHandler, GetTotalUsagesHandler],
})
export class UsagesModule {}
