import { Module } from '@nestjs/common';
import { CandidateIndexService } from '#placement/candidates/candidate-index.service.js';
import {
  CANDIDATE_SEARCH_OPTIONS, GetAllocationCandidatesHandler,
} from '#placement/candidates/get-allocation-candidates.query.js';
import { AllocationCandidatesController } from './allocation-candidates.controller.js';
import { candidateSearchOptions } from './candidate-settings.js';

/** GET /allocation_candidates: its controller, the in-memory index it searches, and the query handler. */
@Module({
  controllers: [AllocationCandidatesController],
  providers: [
    CandidateIndexService,
    GetAllocationCandidatesHandler,
    { provide: CANDIDATE_SEARCH_OPTIONS, useFactory: () => candidateSearchOptions() },
  ],
  // The ledger's explain searches this same index.
  exports: [CandidateIndexService, CANDIDATE_SEARCH_OPTIONS],
})
export class AllocationCandidatesModule {}
