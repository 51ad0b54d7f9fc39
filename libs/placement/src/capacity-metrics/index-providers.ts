import type { ActiveProvider } from '#domain/index.js';
import type { ProviderIndex } from '../candidates/index/provider-index.js';

/** Every live provider's state in the candidate index, walked tree by tree (the index's own listing). */
export function* indexedProviders(index: ProviderIndex): Generator<ActiveProvider> {
  for (const root of index.roots()) for (const node of index.tree(root)) yield node.state;
}
