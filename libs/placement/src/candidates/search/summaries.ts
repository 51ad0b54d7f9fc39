import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import type { OneProviderCandidate } from './candidate.js';
import { Candidate } from './combine.js';
import type { RootSummaries } from './result.js';

/**
 * The providers the answer summarizes: every provider of each tree a candidate takes from;
 * below 1.29 on a deployment with trees, only the providers the candidates take from.
 */
export function summaryProviders(index: ProviderIndex, candidates: readonly Candidate[], wholeTrees: boolean): ProviderNode[] {
  const seen = new Set<ProviderNode>();
  for (const candidate of candidates) for (const { provider } of candidate.allocations) seen.add(wholeTrees ? provider.root : provider);
  if (!wholeTrees) return [...seen];
  const members: ProviderNode[] = [];
  for (const root of seen) {
    if (root.children.length === 0) members.push(root);
    else members.push(...index.tree(root));
  }
  return members;
}

/**
 * The summaries of candidates that are each a root of its own (a streamed answer's), and where
 * each candidate's providers start among them: from 1.29 its whole tree, before it itself.
 */
export function rootSummaries(index: ProviderIndex, wholeTrees: boolean) {
  return (candidates: readonly OneProviderCandidate[]): RootSummaries => {
    const summaries: ProviderNode[] = [];
    const spans = new Int32Array(candidates.length + 1);
    candidates.forEach(({ provider }, i) => {
      spans[i] = summaries.length;
      if (!wholeTrees || provider.children.length === 0) summaries.push(provider);
      else for (const member of index.tree(provider)) summaries.push(member);
    });
    spans[candidates.length] = summaries.length;
    return { summaries, spans };
  };
}
