import type { ProviderNode } from '../index/provider-index.js';
import type { TreeSlice } from '../reuse/tree-answers.js';
import type { Candidate, OneProviderCandidate } from './candidate.js';
import type { ExplainStep } from './explain.js';

/** What a search found: the candidates, the providers summarized, and how it found them. */
export interface CandidateResult {
  readonly candidates: readonly Candidate[];
  readonly summaries: readonly ProviderNode[];
  readonly explain: readonly ExplainStep[];
  /** The candidates tree by tree, when kept trees' parts were used (tree-answers.ts): in order, summaries included. */
  readonly trees?: readonly TreeSlice[];
  /** Generation stopped at SearchOptions.deadline: the candidates are not all there are. */
  readonly outOfTime?: true;
  /** A streamed answer that a later one may patch instead of walking the index again. */
  readonly walked?: Walked;
}

/**
 * How a streamed answer walks the index (one-group.ts): its providers in the order the walk
 * meets them, the test each must pass, and where it stops. The order stays while the index only
 * records changes to providers (change-journal.ts).
 */
export interface StreamedWalk {
  readonly start: Iterable<ProviderNode>;
  readonly admits: (node: ProviderNode) => boolean;
  readonly cap: number;
  readonly candidate: (node: ProviderNode) => OneProviderCandidate;
}

/**
 * The answer a patch was made from, and where each of the patch's candidates stood in it (-1: new
 * to the patch), so that the API can copy the bytes it wrote for them. `result` is let go (null)
 * once the patch itself is patched: answers do not chain.
 */
export interface PatchBase {
  result: CandidateResult | null;
  readonly from: Int32Array;
}

/** A streamed answer's summaries: candidate i's providers are summaries[spans[i]] up to summaries[spans[i + 1]]. */
export interface RootSummaries {
  readonly summaries: readonly ProviderNode[];
  readonly spans: Int32Array;
}

/**
 * A streamed answer that can be brought up to date: its walk, the index's clock it stands at,
 * how its candidates' providers are summarized (each candidate a root: itself, or its tree), and
 * what it was patched from.
 */
export interface Walked {
  readonly walk: StreamedWalk;
  readonly version: number;
  readonly summarize: (candidates: readonly OneProviderCandidate[]) => RootSummaries;
  readonly spans: Int32Array;
  readonly base?: PatchBase;
}
