import { ProviderIndex, ProviderNode, SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { AnchorFilter, SharingAnchors } from './anchors.js';
import { OneProviderCandidate } from './candidate.js';

export { OneProviderCandidate } from './candidate.js';
import { Explain } from './explain.js';
import { CheckedGroup } from './group-context.js';
import { groupMatcher } from './group-match.js';
import { roundRobin } from './round-robin.js';
import { PAUSE_EVERY, Steps } from './steps.js';

export interface StreamOptions {
  readonly cap: number | null;
  readonly shuffle: (<T>(items: T[]) => T[]) | null;
  /** One candidate of each root in turn (upstream's breadth-first strategy); matters only with trees. */
  readonly byRoot?: boolean;
}

/**
 * A request of one group that single providers meet whole, the flat scheduler query, walked
 * provider by provider (group-match.ts), and the walk stops at the cap, so limit=50 looks at few more than fifty providers. One provider
 * is one candidate, the same whichever root it anchors to, so it is listed once.
 */
export function* streamOneGroup(
  index: ProviderIndex, checked: CheckedGroup, allowed: AnchorFilter | null, sharing: SharingAnchors,
  options: StreamOptions, explain: Explain,
): Steps<OneProviderCandidate[]> {
  const { label, group: { suffix, resources } } = checked;
  const candidates: OneProviderCandidate[] = [];
  const { start, matches } = groupMatcher(index, checked);
  const anchored = (node: ProviderNode) => !allowed || allowed.has(node.root)
    || (node.traits.has(SHARES_VIA_AGGREGATE) && sharing.of(node).some((anchor) => allowed.has(anchor)));
  if (options.byRoot) return yield* byRoot(index, checked, anchored, options, explain);
  let examined = 0;
  for (const node of options.shuffle ? options.shuffle([...start]) : start) {
    if (options.cap !== null && candidates.length >= options.cap) break;
    if (++examined % PAUSE_EVERY === 0) yield;
    if (!matches(node) || !anchored(node)) continue;
    candidates.push(new OneProviderCandidate(node, resources, suffix));
  }
  explain.record(`${label}: providers examined`, examined);
  explain.record('candidates', candidates.length);
  return candidates;
}

/**
 * Breadth-first over trees: every provider is walked (a root's providers need not come
 * together), each root keeps at most `cap` candidates, and the roots give one in turn, in the
 * order the walk first met them.
 */
function* byRoot(
  index: ProviderIndex, checked: CheckedGroup, anchored: (node: ProviderNode) => boolean, options: StreamOptions, explain: Explain,
): Steps<OneProviderCandidate[]> {
  const { label, group: { suffix, resources } } = checked;
  const { start, matches } = groupMatcher(index, checked);
  const roots = new Map<ProviderNode, OneProviderCandidate[]>();
  let examined = 0;
  for (const node of options.shuffle ? options.shuffle([...start]) : start) {
    if (++examined % PAUSE_EVERY === 0) yield;
    if (!matches(node) || !anchored(node)) continue;
    let found = roots.get(node.root);
    if (!found) roots.set(node.root, (found = []));
    if (options.cap === null || found.length < options.cap) found.push(new OneProviderCandidate(node, resources, suffix));
  }
  const candidates = roundRobin([...roots.values()]).slice(0, options.cap ?? undefined);
  explain.record(`${label}: providers examined`, examined);
  explain.record('candidates', candidates.length);
  return candidates;
}
