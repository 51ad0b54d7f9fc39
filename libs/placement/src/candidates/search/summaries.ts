import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import { Candidate } from './combine.js';

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
