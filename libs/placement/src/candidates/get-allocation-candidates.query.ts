import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CandidateIndexService } from './candidate-index.service.js';
import { CandidateRequest, SearchOptions } from './request.js';
import { CandidateResult, searchCandidates } from './search/search.js';
import { KeptResults } from './search/kept-results.js';
import { TreeAnswers } from './search/tree-answers.js';

/** How the service searches: read once from settings at start. */
export const CANDIDATE_SEARCH_OPTIONS = Symbol('CANDIDATE_SEARCH_OPTIONS');

export class GetAllocationCandidates {
  constructor(readonly request: CandidateRequest) {}
}

@QueryHandler(GetAllocationCandidates)
export class GetAllocationCandidatesHandler implements IQueryHandler<GetAllocationCandidates, CandidateResult> {
  constructor(
    private readonly candidates: CandidateIndexService,
    @Inject(CANDIDATE_SEARCH_OPTIONS) private readonly options: SearchOptions,
  ) {}

  /** The scheduler asks the same question over and over: trees nobody wrote to since answer as before. */
  private readonly answers = new TreeAnswers();
  /** And before any write at all, the whole answer is the one given last time. */
  private readonly results = new KeptResults();

  async execute({ request }: GetAllocationCandidates): Promise<CandidateResult> {
    const { index, names } = await this.candidates.current();
    return this.results.answer(index, names, request, this.options, () => searchCandidates(index, names, request, this.options, this.answers));
  }
}
