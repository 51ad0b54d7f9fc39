import { RecentlyUsed } from '../../shared/recently-used.js';
import { NameCatalog } from '../index/name-catalog.js';
import { ProviderIndex } from '../index/provider-index.js';
import { CandidateRequest, SearchOptions } from '../request.js';
import type { CandidateResult } from '../search/search.js';
import { patchWalk } from '../search/patch-walk.js';

/** Requests remembered with their answer: a scheduler asks a handful of questions (about one per flavor). */
const RESULTS_KEPT = 16;

/** A request's text, once per request object: the API hands the same object to every asker of one query string. */
const keys = new WeakMap<CandidateRequest, string>();
function keyOf(request: CandidateRequest): string {
  let text = keys.get(request);
  if (text === undefined) keys.set(request, (text = JSON.stringify(request)));
  return text;
}

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
 *
 * After writes, a streamed answer is patched with the providers they changed (patch-walk.ts)
 * where the index can tell them: a boot storm asks each flavor again after a few claims. The
 * patch replaces the answer, which is not reported dropped: the API copies its bytes into the
 * patch's and lets them go then.
 */
export class KeptResults {
  private readonly kept: RecentlyUsed<string, Kept>;
  private readonly patched = new WeakSet<CandidateResult>();

  /** `dropped`: told of each result that is no longer kept, so what was made of it can go too. */
  constructor(private readonly dropped?: (result: CandidateResult) => void) {
    this.kept = new RecentlyUsed<string, Kept>(RESULTS_KEPT, dropped && ((kept) => {
      if (this.patched.has(kept.result)) return;
      dropped(kept.result);
      const base = kept.result.walked?.base?.result;
      if (base) dropped(base);
    }));
  }

  async answer(
    index: ProviderIndex, names: NameCatalog, request: CandidateRequest, options: SearchOptions, search: () => Promise<CandidateResult>,
  ): Promise<CandidateResult> {
    if (options.randomize) return search();
    const text = keyOf(request);
    const hit = this.kept.get(text);
    const asOf = { index, version: index.version, names, namesVersion: names.version };
    if (hit && hit.index === index && hit.names === names && hit.namesVersion === names.version) {
      if (hit.version === index.version) return hit.result;
      const patch = this.patch(hit, index);
      if (patch) {
        this.kept.set(text, { ...asOf, result: patch });
        return patch;
      }
    }
    const result = await search();
    this.kept.set(text, { ...asOf, result });
    return result;
  }

  private patch(hit: Kept, index: ProviderIndex): CandidateResult | null {
    const changes = hit.result.walked && index.changesSince(hit.version);
    if (!changes) return null;
    // What the kept answer was patched from goes now: only the newest patch's base is copied from.
    const older = hit.result.walked?.base?.result;
    const patch = patchWalk(hit.result, changes, index.version);
    if (!patch) return null;
    if (older) this.dropped?.(older);
    this.patched.add(hit.result);
    return patch;
  }
}
