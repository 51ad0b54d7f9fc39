import { ProviderIndex, ProviderNode, SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { AnchorFilter, SharingAnchors } from './anchors.js';
import { OneProviderCandidate } from './candidate.js';

export { OneProviderCandidate } from './candidate.js';
import { Explain } from './explain.js';
import { CheckedGroup } from './group-context.js';
import { groupMatcher } from './group-match.js';
import type { StreamedWalk } from './result.js';
import { roundRobin } from './round-robin.js';
import { PAUSE_EVERY, Steps } from './steps.js';

export interface StreamOptions {
  readonly cap: number;
  readonly shuffle: (<T>(items: T[]) => T[]) | null;
  /** One candidate of each root in turn (upstream's breadth-first strategy); matters only with trees. */
  readonly byRoot?: boolean;
}

/**
 * How the flat scheduler query walks the index: provider by provider (group-match.ts), each
 * meeting the whole group and anchored to an allowed root (or lending to one), up to `cap`.
 */
export function oneGroupWalk(
  index: ProviderIndex, checked: CheckedGroup, allowed: AnchorFilter | null, sharing: SharingAnchors, cap: number,
): StreamedWalk {
  const { group: { suffix, resources } } = checked;
  const { start, matches } = groupMatcher(index, checked);
  const anchored = (node: ProviderNode) => !allowed || allowed.has(node.root)
    || (node.traits.has(SHARES_VIA_AGGREGATE) && sharing.of(node).some((anchor) => allowed.has(anchor)));
  return { start, cap, admits: (node) => matches(node) && anchored(node), candidate: (node) => new OneProviderCandidate(node, resources, suffix) };
}

/**
 * A request of one group that single providers meet whole, walked (oneGroupWalk) until the cap,
 * so limit=50 looks at few more than fifty providers. One provider is one candidate, the same
 * whichever root it anchors to, so it is listed once. With the candidates, the walk that found
 * them: an unshuffled one can be patched later (patch-walk.ts).
 */
export function* streamOneGroup(
  index: ProviderIndex, checked: CheckedGroup, allowed: AnchorFilter | null, sharing: SharingAnchors,
  options: StreamOptions, explain: Explain,
): Steps<{ candidates: OneProviderCandidate[]; walk: StreamedWalk }> {
  const walk = oneGroupWalk(index, checked, allowed, sharing, options.cap);
  if (options.byRoot) return { candidates: yield* byRoot(walk, checked, options, explain), walk };
  const candidates: OneProviderCandidate[] = [];
  let examined = 0;
  for (const node of options.shuffle ? options.shuffle([...walk.start]) : walk.start) {
    if (candidates.length >= walk.cap) break;
    if (++examined % PAUSE_EVERY === 0) yield;
    if (walk.admits(node)) candidates.push(walk.candidate(node));
  }
  explain.record(`${checked.label}: providers examined`, examined);
  explain.record('candidates', candidates.length);
  return { candidates, walk };
}

/**
 * Breadth-first over trees: every provider is walked (a root's providers need not come
 * together), each root keeps at most `cap` candidates, and the roots give one in turn, in the
 * order the walk first met them.
 */
function* byRoot(walk: StreamedWalk, checked: CheckedGroup, options: StreamOptions, explain: Explain): Steps<OneProviderCandidate[]> {
  const roots = new Map<ProviderNode, OneProviderCandidate[]>();
  let examined = 0;
  for (const node of options.shuffle ? options.shuffle([...walk.start]) : walk.start) {
    if (++examined % PAUSE_EVERY === 0) yield;
    if (!walk.admits(node)) continue;
    let found = roots.get(node.root);
    if (!found) roots.set(node.root, (found = []));
    if (found.length < walk.cap) found.push(walk.candidate(node));
  }
  const candidates = roundRobin([...roots.values()]).slice(0, walk.cap);
  explain.record(`${checked.label}: providers examined`, examined);
  explain.record('candidates', candidates.length);
  return candidates;
}
