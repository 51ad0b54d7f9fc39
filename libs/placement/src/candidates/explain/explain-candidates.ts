import { ActiveProvider } from '#domain/index.js';
import { NameCatalog } from '../index/name-catalog.js';
import { ProviderIndex } from '../index/provider-index.js';
import { CandidateRequest, SearchOptions } from '../request.js';
import { ANSWER_CEILING, searchCandidates } from '../search/search.js';
import { Exclusion, firstExclusion, groupFunnel, ProviderStates, StepCount } from './diagnose.js';
import { NamedStep, nameEngineSteps } from './engine-steps.js';

interface GroupExplanation {
  readonly suffix: string;
  /** Providers left after each filter of this group, judged one provider at a time. */
  readonly steps: readonly StepCount[];
}

interface ProviderVerdict {
  readonly suffix: string;
  /** In some candidate for this group. */
  readonly in_candidates: boolean;
  /** The first filter that turned it away; null if it passed them all. */
  readonly excluded_by: Exclusion | null;
  /**
   * Passed every filter yet is in no candidate: the combination of the groups left it out; null
   * when generation stopped early, since a later candidate might have held it.
   */
  readonly left_out_by_combination: boolean | null;
}

/** Why the candidates counted are not all there are: the generation cap, or explain's time budget. */
type StoppedBy = 'max_allocation_candidates' | 'time_budget';

export interface CandidatesExplanation {
  readonly groups: readonly GroupExplanation[];
  /** What the search itself counted, step by step, for the groups and the whole request. */
  readonly search: readonly NamedStep[];
  readonly candidates: number;
  /** null: every candidate was generated and counted. */
  readonly stopped_by: StoppedBy | null;
  readonly provider?: { readonly uuid: string; readonly exists: boolean; readonly groups: readonly ProviderVerdict[] };
}

function indexStates(index: ProviderIndex): Map<string, ActiveProvider> {
  const states = new Map<string, ActiveProvider>();
  for (const root of index.roots()) for (const node of index.tree(root)) states.set(node.uuid, node.state);
  return states;
}

/**
 * Runs the search as GET /allocation_candidates would, uncapped by `limit` so the counts are the
 * whole answer, and explains it; for a named provider, where each group turned it away. Like the
 * search it explains, it generates no more than max_allocation_candidates, and it stops at
 * `deadline` (performance.now()), so a wide tree costs a caller no more than its time budget.
 */
export function explainCandidates(
  index: ProviderIndex, names: NameCatalog, request: CandidateRequest, options: SearchOptions, provider: string | null, deadline?: number,
): CandidatesExplanation {
  // Counted up to the ceiling an unlimited answer has (search.ts) when no cap is set: explain answers where the search would refuse.
  const maxCandidates = options.maxCandidates ?? ANSWER_CEILING;
  const result = searchCandidates(index, names, { ...request, limit: null }, { ...options, maxCandidates, randomize: false, countEveryStep: true, deadline });
  const capped = result.candidates.length >= maxCandidates;
  const stoppedBy: StoppedBy | null = result.outOfTime ? 'time_budget' : capped ? 'max_allocation_candidates' : null;
  const states: ProviderStates = indexStates(index);
  const groups = request.groups.map((group) => ({ suffix: group.suffix, steps: groupFunnel(states, group, request) }));
  const answer: CandidatesExplanation = {
    groups, search: nameEngineSteps(result.explain), candidates: result.candidates.length, stopped_by: stoppedBy,
  };
  if (provider === null) return answer;
  const served = new Map<string, Set<string>>();
  for (const candidate of result.candidates) {
    for (const [suffix, providers] of candidate.mappings) {
      let set = served.get(suffix);
      if (!set) served.set(suffix, (set = new Set()));
      for (const node of providers) set.add(node.uuid);
    }
  }
  const verdicts = request.groups.map((group): ProviderVerdict => {
    const inCandidates = served.get(group.suffix)?.has(provider) ?? false;
    const excludedBy = firstExclusion(states, provider, group, request);
    const leftOut = !inCandidates && excludedBy === null;
    return { suffix: group.suffix, in_candidates: inCandidates, excluded_by: excludedBy, left_out_by_combination: leftOut && stoppedBy !== null ? null : leftOut };
  });
  return { ...answer, provider: { uuid: provider, exists: states.has(provider), groups: verdicts } };
}
