import { Module } from '@nestjs/common';
import { AllocationCandidatesModule } from '../allocation-candidates/allocation-candidates.module.js';
import { ConsoleController } from './console.controller.js';
import { ConsoleDataController } from './data/console-data.controller.js';

/** The operators' console page and the two JSON views it needs that upstream's API has no single call for. */
@Module({
  imports: [AllocationCandidatesModule],
  controllers: [ConsoleController, ConsoleDataController],
})
export class ConsoleModule {}
