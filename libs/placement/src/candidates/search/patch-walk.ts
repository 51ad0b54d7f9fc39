import type { ProviderChange, ProviderNode } from '../index/provider-index.js';
import type { OneProviderCandidate } from './candidate.js';
import type { CandidateResult, StreamedWalk } from './result.js';

/**
 * The answer a fresh walk would give now, from an answer of the same request and the changes
 * since it (a scheduler asks again after a claim or two), or null where they cannot tell: a
 * changed provider that may now belong before where the walk stopped. A provider whose usage only
 * went up met the request before if it meets it now, so outside the answer it lies past the cut.
 * Providers that no longer meet the request leave it, and a capped answer walks on from its last
 * provider for as many as left.
 */
export function patchWalk(result: CandidateResult, changes: readonly ProviderChange[], version: number): CandidateResult | null {
  const walked = result.walked;
  if (!walked) return null;
  const { walk } = walked;
  const before = result.candidates as readonly OneProviderCandidate[];
  const capped = before.length >= walk.cap;
  const shrankOnly = new Map<ProviderNode, boolean>();
  for (const { node, shrank } of changes) shrankOnly.set(node, shrank && shrankOnly.get(node) !== false);
  // Of the changed providers (a few), those in the answer (a thousand): the answer is scanned, not copied into a set.
  const listed = new Set<ProviderNode>();
  for (const candidate of before) if (shrankOnly.has(candidate.provider)) listed.add(candidate.provider);
  const leaving = new Set<ProviderNode>();
  for (const [node, shrank] of shrankOnly) {
    const admitted = walk.admits(node);
    if (listed.has(node)) {
      if (!admitted) leaving.add(node);
    } else if (admitted && !(capped && shrank)) return null;
  }
  if (walked.base) walked.base.result = null;
  if (leaving.size === 0) {
    // Every candidate stays where it stood: the lists are the answer's own.
    return {
      candidates: before, summaries: result.summaries, explain: result.explain,
      walked: { walk, version, summarize: walked.summarize, spans: walked.spans, base: { result, from: identity(before.length) } },
    };
  }
  const candidates: OneProviderCandidate[] = [];
  // No longer than the answer before: a capped walk only fills it up again.
  const from = new Int32Array(before.length);
  for (let at = 0; at < before.length; at++) {
    if (leaving.has(before[at].provider)) continue;
    from[candidates.length] = at;
    candidates.push(before[at]);
  }
  if (capped) walkOn(walk, before[before.length - 1].provider, candidates, from);
  const { summaries, spans } = walked.summarize(candidates);
  return {
    candidates, summaries, explain: result.explain,
    walked: { walk, version, summarize: walked.summarize, spans, base: { result, from: from.subarray(0, candidates.length) } },
  };
}

/** 0, 1, 2, ...: one array, read only, shared by every patch that moved nothing (a view of it per patch). */
let identities = new Int32Array(0);
function identity(length: number): Int32Array {
  if (identities.length < length) {
    identities = new Int32Array(Math.max(length, 2 * identities.length));
    for (let at = 0; at < identities.length; at++) identities[at] = at;
  }
  return identities.subarray(0, length);
}

/** The walk taken up after `last`, where the answer was cut, until it is full again. */
function walkOn(walk: StreamedWalk, last: ProviderNode, candidates: OneProviderCandidate[], from: Int32Array): void {
  let past = false;
  for (const node of walk.start) {
    if (candidates.length >= walk.cap) return;
    if (!past) {
      past = node === last;
      continue;
    }
    if (!walk.admits(node)) continue;
    from[candidates.length] = -1;
    candidates.push(walk.candidate(node));
  }
}
