import { ActiveProvider } from '#domain/index.js';
import { NameCatalog } from '../index/name-catalog.js';
import { ProviderIndex } from '../index/provider-index.js';
import { CandidateRequest, SearchOptions } from '../request.js';
import { searchCandidates } from '../search/search.js';
import { Exclusion, firstExclusion, groupFunnel, ProviderStates, StepCount } from './diagnose.js';
import { NamedStep, nameEngineSteps } from './engine-steps.js';

export interface GroupExplanation {
  readonly suffix: string;
  /** Providers left after each filter of this group, judged one provider at a time. */
  readonly steps: readonly StepCount[];
}

export interface ProviderVerdict {
  readonly suffix: string;
  /** In some candidate for this group. */
  readonly in_candidates: boolean;
  /** The first filter that turned it away; null if it passed them all. */
  readonly excluded_by: Exclusion | null;
  /** Passed every filter yet is in no candidate: the combination of the groups left it out. */
  readonly left_out_by_combination: boolean;
}

export interface CandidatesExplanation {
  readonly groups: readonly GroupExplanation[];
  /** What the search itself counted, step by step, for the groups and the whole request. */
  readonly search: readonly NamedStep[];
  readonly candidates: number;
  readonly provider?: { readonly uuid: string; readonly exists: boolean; readonly groups: readonly ProviderVerdict[] };
}

export function indexStates(index: ProviderIndex): Map<string, ActiveProvider> {
  const states = new Map<string, ActiveProvider>();
  for (const root of index.roots()) for (const node of index.tree(root)) states.set(node.uuid, node.state);
  return states;
}

/**
 * Runs the search as GET /allocation_candidates would, uncapped by `limit` so the counts are the
 * whole answer, and explains it; for a named provider, where each group turned it away.
 */
export function explainCandidates(
  index: ProviderIndex, names: NameCatalog, request: CandidateRequest, options: SearchOptions, provider: string | null,
): CandidatesExplanation {
  const result = searchCandidates(index, names, { ...request, limit: null }, { ...options, randomize: false, maxCandidates: null, countEveryStep: true });
  const states: ProviderStates = indexStates(index);
  const groups = request.groups.map((group) => ({ suffix: group.suffix, steps: groupFunnel(states, group, request) }));
  const answer: CandidatesExplanation = { groups, search: nameEngineSteps(result.explain), candidates: result.candidates.length };
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
    return { suffix: group.suffix, in_candidates: inCandidates, excluded_by: excludedBy, left_out_by_combination: !inCandidates && excludedBy === null };
  });
  return { ...answer, provider: { uuid: provider, exists: states.has(provider), groups: verdicts } };
}
