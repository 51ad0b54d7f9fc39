import { ProviderNode } from '../index/provider-index.js';

const isAncestorOrSelf = (ancestor: ProviderNode, node: ProviderNode | null): boolean => {
  for (; node; node = node.parent) if (node === ancestor) return true;
  return false;
};

/**
 * upstream's _check_same_subtree: one of the providers is an ancestor (or itself) of all the
 * others. A provider listed twice changes nothing, so callers need not dedupe.
 */
export function inSameSubtree(nodes: Iterable<ProviderNode>): boolean {
  for (const top of nodes) {
    let all = true;
    for (const node of nodes) if (!isAncestorOrSelf(top, node)) { all = false; break; }
    if (all) return true;
  }
  return false;
}
