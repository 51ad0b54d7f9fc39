import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore, LogPosition, START } from '#event-store/index.js';
import { AsOf, asOfPoint } from '../../ledger/as-of.js';
import { CandidateIndexService, CandidateView } from '../candidate-index.service.js';
import { CANDIDATE_SEARCH_OPTIONS } from '../get-allocation-candidates.query.js';
import { applyEvent } from '../index/apply-event.js';
import { ProjectTally } from '../index/project-tally.js';
import { NameCatalog } from '../index/name-catalog.js';
import { ProviderIndex } from '../index/provider-index.js';
import { CandidateRequest, SearchOptions } from '../request.js';
import { CandidatesExplanation, explainCandidates } from './explain-candidates.js';

const BATCH = 5000;

export class ExplainAllocationCandidates {
  constructor(readonly request: CandidateRequest, readonly provider: string | null, readonly asOf: AsOf | null) {}
}

/**
 * Explains a candidates query over the live index, or over a throw-away index folded from the
 * log up to as_of with the same applyEvent, so a past answer is the one the service gave then.
 */
@QueryHandler(ExplainAllocationCandidates)
export class ExplainAllocationCandidatesHandler implements IQueryHandler<ExplainAllocationCandidates, CandidatesExplanation> {
  constructor(
    private readonly candidates: CandidateIndexService,
    @Inject(CANDIDATE_SEARCH_OPTIONS) private readonly options: SearchOptions,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async execute({ request, provider, asOf }: ExplainAllocationCandidates): Promise<CandidatesExplanation> {
    const { index, names } = asOf ? await this.indexAsOf(asOf) : await this.candidates.current();
    return explainCandidates(index, names, request, this.options, provider);
  }

  private async indexAsOf(asOf: AsOf): Promise<CandidateView> {
    // Explain needs no usage per project: consumer events are skipped.
    const view = { index: new ProviderIndex(), names: new NameCatalog(), projects: new ProjectTally() };
    const until = asOfPoint(asOf);
    let from: LogPosition = START;
    for (;;) {
      const events = await this.store.readAll(from, BATCH, { until });
      for (const event of events) applyEvent(view.index, view.names, event);
      if (events.length < BATCH) return view;
      from = events[events.length - 1].position;
    }
  }
}
