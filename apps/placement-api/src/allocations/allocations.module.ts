import { DynamicModule, Module } from '@nestjs/common';
import { ALLOCATION_PROVIDERS, CLAIM_ATTEMPTS } from '#placement/allocations/index.js';
import type { AllocationSettings } from '#platform/allocation-settings.js';
import { AllocationsController } from './allocations.controller.js';
import { AllocationsPatchController } from './allocations-patch.controller.js';
import { INCOMPLETE_OWNERS } from './allocations.module-tokens.js';

/** The allocations family (claims): its controllers and its command and query handlers. */
@Module({})
export class AllocationsModule {
  /** Upstream's [placement] options for claims: incomplete consumers' owners, attempts against racing writers. */
  static withSettings(settings: AllocationSettings): DynamicModule {
    return {
      module: AllocationsModule,
      controllers: [AllocationsController, AllocationsPatchController],
      providers: [
        ...ALLOCATION_PROVIDERS,
        { provide: CLAIM_ATTEMPTS, useValue: settings.conflictRetryCount },
        { provide: INCOMPLETE_OWNERS, useValue: { projectId: settings.incompleteConsumerProjectId, userId: settings.incompleteConsumerUserId } },
      ],
    };
  }
}
