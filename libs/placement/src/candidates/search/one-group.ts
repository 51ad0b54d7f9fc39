import { ProviderIndex, ProviderNode, SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { SharingAnchors } from './anchors.js';
import { OneProviderCandidate } from './candidate.js';

export { OneProviderCandidate } from './candidate.js';
import { Explain } from './explain.js';
import { CheckedGroup } from './group-context.js';
import { groupMatcher } from './group-match.js';

export interface StreamOptions {
  readonly cap: number | null;
  readonly shuffle: (<T>(items: T[]) => T[]) | null;
}

/**
 * A request of one group that single providers meet whole, the flat scheduler query, walked
 * provider by provider (group-match.ts), and the walk stops at the cap, so limit=50 looks at few more than fifty providers. One provider
 * is one candidate, the same whichever root it anchors to, so it is listed once.
 */
export function streamOneGroup(
  index: ProviderIndex, checked: CheckedGroup, allowed: ReadonlySet<ProviderNode> | null, sharing: SharingAnchors,
  options: StreamOptions, explain: Explain,
): OneProviderCandidate[] {
  const { label, group: { suffix, resources } } = checked;
  const candidates: OneProviderCandidate[] = [];
  const { start, matches } = groupMatcher(index, checked);
  const anchored = (node: ProviderNode) => !allowed || allowed.has(node.root)
    || (node.traits.has(SHARES_VIA_AGGREGATE) && sharing.of(node).some((anchor) => allowed.has(anchor)));
  let examined = 0;
  for (const node of options.shuffle ? options.shuffle([...start]) : start) {
    if (options.cap !== null && candidates.length >= options.cap) break;
    examined++;
    if (!matches(node) || !anchored(node)) continue;
    candidates.push(new OneProviderCandidate(node, resources, suffix));
  }
  explain.record(`${label}: providers examined`, examined);
  explain.record('candidates', candidates.length);
  return candidates;
}
