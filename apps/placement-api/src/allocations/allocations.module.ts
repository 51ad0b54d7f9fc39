import { Module } from '@nestjs/common';
import { ALLOCATION_PROVIDERS } from '../../../../libs/placement/src/allocations/index.js';
import { AllocationsController } from './allocations.controller.js';

/** The allocations family (claims): its controller, the claim runner and its command and query handlers. */
@Module({
  controllers: [AllocationsController],
  providers: [...ALLOCATION_PROVIDERS],
})
export class AllocationsModule {}
