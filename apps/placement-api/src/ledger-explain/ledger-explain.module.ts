import { Module } from '@nestjs/common';
import { ExplainAllocationCandidatesHandler } from '#placement/candidates/explain/explain-candidates.query.js';
import { AllocationCandidatesModule } from '../allocation-candidates/allocation-candidates.module.js';
import { LedgerExplainController } from './ledger-explain.controller.js';

/** GET /ledger/explain/allocation_candidates: it searches the candidates module's own index. */
@Module({
  imports: [AllocationCandidatesModule],
  controllers: [LedgerExplainController],
  providers: [ExplainAllocationCandidatesHandler],
})
export class LedgerExplainModule {}
