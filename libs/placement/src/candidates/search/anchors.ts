import { NameCatalog } from '../index/name-catalog.js';
import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import { CandidateRequest } from '../request.js';
import { Explain } from './explain.js';
import { requireTraits } from './group-context.js';

/** Which roots may anchor a candidate: a root_required test, or the set of such roots. */
export interface AnchorFilter {
  has(root: ProviderNode): boolean;
}

/**
 * root_required: the roots that may anchor a candidate (upstream's _get_roots_with_traits),
 * or null when the request does not filter anchors. Asked for the scheduler, it is a test of the
 * roots the search meets, so a limited answer looks at as many roots as it lists, not at every
 * root of the cloud; explaining (`counted`), it is the set of them, counted, and an empty set
 * empties the answer at once.
 */
export function allowedAnchors(index: ProviderIndex, names: NameCatalog, request: CandidateRequest, explain: Explain, counted: boolean): AnchorFilter | null {
  const { rootRequired, rootForbidden } = request;
  if (rootRequired.length === 0 && rootForbidden.length === 0) return null;
  requireTraits(names, rootRequired);
  requireTraits(names, rootForbidden);
  const admits = (root: ProviderNode) => rootRequired.every((t) => root.traits.has(t)) && !rootForbidden.some((t) => root.traits.has(t));
  if (!counted) return { has: admits };
  const roots = new Set<ProviderNode>();
  for (const root of index.roots()) if (admits(root)) roots.add(root);
  explain.record('roots meeting root_required', roots.size);
  return roots;
}

/**
 * The roots a sharing provider can lend to: the root of every provider that shares an
 * aggregate with it, its own root included (upstream's anchors_for_sharing_providers).
 */
export class SharingAnchors {
  private readonly cache = new Map<ProviderNode, ProviderNode[]>();
  private lenders: Map<ProviderNode, ProviderNode[]> | null = null;

  constructor(private readonly index: ProviderIndex) {}

  of(provider: ProviderNode): ProviderNode[] {
    let anchors = this.cache.get(provider);
    if (!anchors) {
      const roots = new Set<ProviderNode>();
      for (const aggregate of provider.aggregates) for (const member of this.index.inAggregate(aggregate)) roots.add(member.root);
      this.cache.set(provider, (anchors = [...roots]));
    }
    return anchors;
  }

  /** The sharing providers outside the anchor's tree that lend to it, in the index's order of sharing providers. */
  lendersTo(anchor: ProviderNode): readonly ProviderNode[] {
    if (this.index.sharing.size === 0) return [];
    if (!this.lenders) {
      this.lenders = new Map();
      for (const provider of this.index.sharing) {
        for (const root of this.of(provider)) {
          if (root === provider.root) continue;
          const list = this.lenders.get(root);
          if (list) list.push(provider);
          else this.lenders.set(root, [provider]);
        }
      }
    }
    return this.lenders.get(anchor) ?? [];
  }
}
