import { RecentlyUsed } from '../../shared/recently-used.js';
import { NameCatalog } from '../index/name-catalog.js';
import { ProviderIndex } from '../index/provider-index.js';
import { CandidateRequest, SearchOptions } from '../request.js';
import type { CandidateResult } from '../search/search.js';

/** Requests remembered with their answer: a scheduler asks a handful of questions (about one per flavor). */
const RESULTS_KEPT = 16;

/** The view an answer was computed from: an unchanged index and catalog give the same answer. */
interface Kept {
  readonly index: ProviderIndex;
  readonly version: number;
  readonly names: NameCatalog;
  readonly namesVersion: number;
  readonly result: CandidateResult;
}

/**
 * Whole answers, per request (limit included), while nothing was written since: the search is a
 * function of the index, the catalog and the request, except where candidates are shuffled. The
 * same object is returned, so the API can keep what it made of it (its bytes). Schedulers asking
 * the same question between two writes pay only for the read of the log's head.
 */
export class KeptResults {
  private readonly kept: RecentlyUsed<string, Kept>;

  /** `dropped`: told of each result that is no longer kept, so what was made of it can go too. */
  constructor(dropped?: (result: CandidateResult) => void) {
    this.kept = new RecentlyUsed<string, Kept>(RESULTS_KEPT, dropped && ((kept) => dropped(kept.result)));
  }

  async answer(
    index: ProviderIndex, names: NameCatalog, request: CandidateRequest, options: SearchOptions, search: () => Promise<CandidateResult>,
  ): Promise<CandidateResult> {
    if (options.randomize) return search();
    const text = JSON.stringify(request);
    const hit = this.kept.get(text);
    if (hit && hit.index === index && hit.version === index.version && hit.names === names && hit.namesVersion === names.version) return hit.result;
    const asOf = { index, version: index.version, names, namesVersion: names.version };
    const result = await search();
    this.kept.set(text, { ...asOf, result });
    return result;
  }
}
