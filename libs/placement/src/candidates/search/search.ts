import { badRequest, ErrorCode } from '#domain/index.js';
import { NameCatalog } from '../index/name-catalog.js';
import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import { CandidateRequest, isGranular, RequestGroup, SearchOptions } from '../request.js';
import { allowedAnchors, SharingAnchors } from './anchors.js';
import { Candidate, Combiner, GroupPlan } from './combine.js';
import { Explain } from './explain.js';
import { GroupChoices } from './group-choices.js';
import { checkGroup, resolveGroup } from './group-context.js';
import { streamOneGroup } from './one-group.js';
import { combinable, countTreeChoices, treeChoices } from './multi-provider.js';
import { countSingleProviderChoices, singleProviderChoices } from './single-provider.js';
import { rootSummaries, summaryProviders } from './summaries.js';
import { summarized, TreeAnswers } from '../reuse/tree-answers.js';
import { runToEnd, Steps } from './steps.js';
import type { CandidateResult } from './result.js';

export type { CandidateResult } from './result.js';

const resourceful = (group: RequestGroup) => group.resources.length > 0;

/**
 * The most candidates an answer asked without limit gives when max_allocation_candidates sets no
 * cap (upstream's default): a whole large cloud's answer fits (100,000 flat providers), a wide
 * tree's millions do not, and are refused before they fill the server's memory.
 */
export const ANSWER_CEILING = 100_000;

function refusePastCeiling(generated: number): void {
  if (generated <= ANSWER_CEILING) return;
  throw badRequest(
    `The request would give more than ${ANSWER_CEILING} allocation candidates. Ask for fewer with limit, `
    + 'or set [placement] max_allocation_candidates (PLACEMENT_MAX_ALLOCATION_CANDIDATES) to cap them.',
    ErrorCode.QUERYPARAM_BAD_VALUE,
  );
}

/** Whether the group has a choice at some anchor: usually the first its walk finds. */
function anywhere(choices: GroupChoices, required: RequestGroup['requiredTraits']): boolean {
  for (const anchor of choices.anchors()) {
    const levels = choices.at(anchor);
    if (levels && combinable(levels, required)) return true;
  }
  return false;
}

function shuffler(random: () => number) {
  return <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  };
}

/**
 * GET /allocation_candidates over the index: anchors (root_required), then each group in
 * query order (names, aggregates, capacity, traits, trees, sharing), then the combination. A
 * lone group that single providers meet whole (a suffixed one, or one whose classes only roots
 * hold) is streamed instead (one-group.ts).
 * A group that matches nothing ends the search before later groups are even looked at, as
 * upstream, so a later group's unknown class is then not reported.
 */
export function searchCandidates(
  index: ProviderIndex, names: NameCatalog, request: CandidateRequest, options: SearchOptions, answers?: TreeAnswers,
): CandidateResult {
  return runToEnd(searchSteps(index, names, request, options, answers));
}

/** The search in steps (steps.ts): the API runs them pausing, so a wide tree holds no one up. */
export function* searchSteps(
  index: ProviderIndex, names: NameCatalog, request: CandidateRequest, options: SearchOptions, answers?: TreeAnswers,
): Steps<CandidateResult> {
  const explain = new Explain();
  const nothing: CandidateResult = { candidates: [], summaries: [], explain: explain.steps };
  const allowed = allowedAnchors(index, names, request, explain, options.countEveryStep === true);
  if (allowed instanceof Set && allowed.size === 0) return nothing;
  const sharing = new SharingAnchors(index);
  const spreads = index.sharing.size > 0 || index.hasTrees;
  const caps = [request.limit, options.maxCandidates].filter((n): n is number => n !== null && n > 0);
  // Neither a limit nor max_allocation_candidates: generation stops one past the ceiling, and the answer is refused.
  const cap = caps.length > 0 ? Math.min(...caps) : ANSWER_CEILING + 1;
  const unbounded = caps.length === 0;
  const shuffle = options.randomize ? shuffler(options.random ?? Math.random) : null;
  const wholeTrees = request.nestedAware || !index.hasTrees;
  const breadthFirst = options.strategy === 'breadth-first';
  const answer = (candidates: readonly Candidate[], summarized?: readonly ProviderNode[]): CandidateResult => {
    const summaries = summarized ?? summaryProviders(index, candidates, wholeTrees);
    explain.record('providers summarized', summaries.length);
    return { candidates, summaries, explain: explain.steps };
  };
  const lone = request.groups.length === 1 ? request.groups[0] : null;
  // Only roots hold what the lone group asks, and none lends: each candidate is one root, as in a flat cloud.
  const onRoots = lone !== null && resourceful(lone) && index.sharing.size === 0 && index.heldByRootsOnly(lone.resources.map(([rc]) => rc));
  if (lone && (isGranular(lone) || !spreads || onRoots)) {
    const checked = checkGroup(index, names, lone, explain);
    if (!checked) return nothing;
    const byRoot = breadthFirst && index.hasTrees && !onRoots;
    const { candidates: streamed, walk } = yield* streamOneGroup(index, checked, allowed, sharing, { cap, shuffle, byRoot }, explain);
    if (unbounded) refusePastCeiling(streamed.length);
    if (!onRoots || shuffle) return answer(streamed);
    // A walk in the index's order, where each candidate is a root of its own, can be patched (patch-walk.ts).
    const summarize = rootSummaries(index, wholeTrees);
    const { summaries, spans } = summarize(streamed);
    return { ...answer(streamed, summaries), walked: { walk, version: index.version, summarize, spans } };
  }
  const plans: GroupPlan[] = [];
  for (const group of request.groups) {
    // Only the unsuffixed group spread over trees needs, per class, everyone with room.
    const multi = !isGranular(group) && spreads;
    const counting = options.countEveryStep === true;
    const checked = multi && counting ? resolveGroup(index, names, group, explain) : checkGroup(index, names, group, explain);
    if (!checked) return nothing;
    let choices: GroupChoices;
    if (multi) {
      const trees = treeChoices(index, checked, allowed, sharing, explain);
      if (counting) countTreeChoices(index, checked, trees, sharing, explain);
      choices = trees;
    } else {
      if (counting) countSingleProviderChoices(index, checked, allowed, sharing, explain);
      choices = singleProviderChoices(index, checked, allowed, sharing);
    }
    // A group met nowhere ends the search before later groups are checked, as upstream.
    if (!anywhere(choices, multi ? group.requiredTraits : [])) return nothing;
    plans.push({ ctx: checked, choices, multi });
  }
  if (plans.length === 0) return nothing;
  const excludeNested = !request.nestedAware && index.hasTrees;
  // Kept parts are a tree's own candidates only where no provider lends to other trees.
  const reusable = answers && wholeTrees && index.sharing.size === 0 && !shuffle && !breadthFirst && !options.countEveryStep;
  const reuse = reusable ? { answers, index, key: answers.keyOf(request, excludeNested), names: names.version, since: index.version } : null;
  // Refused past the ceiling: where a tree is sure to give more, before it is walked (no sharing provider repeats a candidate).
  const ceiling = unbounded && index.sharing.size === 0 ? ANSWER_CEILING : undefined;
  const combiner = new Combiner(plans, request, { cap, excludeNested, shuffle, breadthFirst, reuse, deadline: options.deadline, ceiling });
  const candidates = yield* combiner.run(explain);
  if (unbounded) refusePastCeiling(combiner.beyondCeiling ? ANSWER_CEILING + 1 : candidates.length);
  if (combiner.timedOut) return { ...answer(candidates), outOfTime: true };
  const trees = combiner.slices;
  if (!trees) return answer(candidates);
  const summaries: ProviderNode[] = [];
  for (const slice of trees) if (summarized(slice)) for (const node of slice.members) summaries.push(node);
  explain.record('providers summarized', summaries.length);
  return { candidates, summaries, explain: explain.steps, trees };
}
