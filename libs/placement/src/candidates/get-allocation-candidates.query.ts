import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CandidateIndexService } from './candidate-index.service.js';
import { CandidateRequest, SearchOptions } from './request.js';
import { CandidateResult, searchSteps } from './search/search.js';
import { LOOP_TURNS } from './search/loop-turns.js';
import { Pace, runPausing, Steps } from './search/steps.js';
import { AnswerReuse } from './reuse/answer-reuse.js';

/** How the service searches: read once from settings at start. */
export const CANDIDATE_SEARCH_OPTIONS = Symbol('CANDIDATE_SEARCH_OPTIONS');

/**
 * How long a search or its presentation runs before it lets other requests in: a wide tree's
 * answer then delays them by a slice at most, however long it takes itself. A claim meets such a
 * delay at each of its steps on the event loop (its request, each PostgreSQL reply), so the slice
 * is kept short; giving the loop back costs microseconds.
 */
const SLICE_MS = 2;

/** Runs a search's or a presentation's steps at the pace of a request (runPausing). */
export type PacedRun = <T>(steps: Steps<T>) => Promise<T>;

/**
 * The candidates of a request, and what `present` makes of them (the API's body, with the bytes
 * kept between answers): both over one set of providers, which no write changes until they are
 * done, though they pause. Claims are folded in meanwhile (candidate-index.service.ts), so a long
 * answer holds back neither them nor the questions after them.
 */
export class GetAllocationCandidates<Presented = CandidateResult> {
  constructor(
    readonly request: CandidateRequest,
    readonly present?: (result: CandidateResult, reuse: AnswerReuse, run: PacedRun) => Promise<Presented>,
  ) {}
}

@QueryHandler(GetAllocationCandidates)
export class GetAllocationCandidatesHandler implements IQueryHandler<GetAllocationCandidates<unknown>, unknown> {
  constructor(
    private readonly candidates: CandidateIndexService,
    @Inject(CANDIDATE_SEARCH_OPTIONS) private readonly options: SearchOptions,
  ) {}

  /** What answers reuse from one to the next: trees nobody wrote to since, whole answers before any write, their bytes. */
  private readonly reuse = new AnswerReuse();

  /** A write waiting for the view makes a long answer hurry: every question after the write waits for both. */
  private readonly pace: Pace = { sliceMs: SLICE_MS, turns: LOOP_TURNS, hurry: () => this.candidates.writeWaiting };

  execute({ request, present }: GetAllocationCandidates<unknown>): Promise<unknown> {
    const spent = { ms: 0 };
    const run: PacedRun = (steps) => runPausing(steps, this.pace, spent);
    return this.candidates.read(async ({ index, names }) => {
      const search = () => run(searchSteps(index, names, request, this.options, this.reuse.trees));
      const result = await this.reuse.results.answer(index, names, request, this.options, search);
      return present ? present(result, this.reuse, run) : result;
    }, true);
  }
}
