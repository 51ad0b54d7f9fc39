import { Module } from '@nestjs/common';
import { GetProviderUsagesHandler } from '../../../../libs/placement/src/usages/get-provider-usages.query.js';
import { GetTotalUsagesHandler } from '../../../../libs/placement/src/usages/get-total-usages.query.js';
import { UsagesController } from './usages.controller.js';

/** Usages: read-only views over the allocations and consumers read models. */
@Module({
  controllers: [UsagesController],
  providers: [GetProviderUsagesHandler, GetTotalUsagesHandler],
})
export class UsagesModule {}
