import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '#event-store/index.js';
import { READ_DB, ReadDb } from '../../shared/read-db.js';
import { AsOf, asOfPoint } from '../../ledger/as-of.js';
import { CandidateIndexService, CandidateView } from '../candidate-index.service.js';
import { CANDIDATE_SEARCH_OPTIONS } from '../get-allocation-candidates.query.js';
import { CandidateRequest, SearchOptions } from '../request.js';
import { CandidateSnapshotStore } from '../snapshot/snapshot-store.js';
import { loadNewestSnapshot, replayLog } from '../snapshot/snapshots.js';
import { CandidatesExplanation, explainCandidates } from './explain-candidates.js';

/**
 * How long one explanation may generate candidates: a wide tree has millions, and explain counts
 * them all where GET /allocation_candidates stops at its limit.
 */
const EXPLAIN_TIME_BUDGET_MS = 1000;

export class ExplainAllocationCandidates {
  constructor(readonly request: CandidateRequest, readonly provider: string | null, readonly asOf: AsOf | null) {}
}

/**
 * Explains a candidates query over the live index, or over a throw-away view of the log as it
 * was at as_of: the newest candidate snapshot at or before it, then the events after it up to
 * as_of, folded with the same applyEvent, so a past answer is the one the service gave then.
 */
@QueryHandler(ExplainAllocationCandidates)
export class ExplainAllocationCandidatesHandler implements IQueryHandler<ExplainAllocationCandidates, CandidatesExplanation> {
  private readonly snapshots: CandidateSnapshotStore;

  constructor(
    private readonly candidates: CandidateIndexService,
    @Inject(CANDIDATE_SEARCH_OPTIONS) private readonly options: SearchOptions,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) db: ReadDb,
  ) {
    this.snapshots = new CandidateSnapshotStore(db);
  }

  async execute({ request, provider, asOf }: ExplainAllocationCandidates): Promise<CandidatesExplanation> {
    const { index, names } = asOf ? await this.viewAsOf(asOf) : await this.candidates.current();
    return explainCandidates(index, names, request, this.options, provider, performance.now() + EXPLAIN_TIME_BUDGET_MS);
  }

  private async viewAsOf(asOf: AsOf): Promise<CandidateView> {
    const point = asOfPoint(asOf);
    const from = await loadNewestSnapshot(this.snapshots, this.store, undefined, point);
    return (await replayLog(this.store, from, point)).view;
  }
}
