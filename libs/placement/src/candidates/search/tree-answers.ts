import { RecentlyUsed } from '../../shared/recently-used.js';
import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import { CandidateRequest } from '../request.js';
import { Candidate } from './candidate.js';

/**
 * Every candidate one tree gave a request, with the tree as it stood (its stamp, its members).
 * Without sharing providers a tree's candidates depend only on its own providers and the
 * request, so while the tree's stamp is unchanged they are still the answer.
 */
export interface TreePart {
  readonly key: RequestKey;
  readonly stamp: number;
  readonly members: readonly ProviderNode[];
  readonly candidates: readonly Candidate[];
  /** Whether a candidate takes from the tree, so that its providers are summarized. */
  readonly summarized: boolean;
  /** The API's bytes of this part (allocation-candidates.presenter.ts); the search never reads it. */
  presented?: unknown;
}

/** What one tree adds to an answer: all of a part, or the first of them where the cap fell. */
export interface TreeSlice {
  readonly root: ProviderNode;
  readonly members: readonly ProviderNode[];
  readonly candidates: readonly Candidate[];
  /** The part the slice was taken from, when it was (or could be) kept. */
  readonly part: TreePart | null;
}

/** Whether some of these candidates take from their tree, so that its providers are summarized. */
const takeFromTree = (candidates: readonly Candidate[]) => candidates.some((c) => c.allocations.length > 0);

/** Whether the slice's tree is summarized: worked out once for a whole kept part. */
export function summarized(slice: TreeSlice): boolean {
  return slice.part && slice.candidates === slice.part.candidates ? slice.part.summarized : takeFromTree(slice.candidates);
}

/** One request as the search sees it: the same object for the same request, compared by identity. */
export interface RequestKey {
  readonly text: string;
}

/** Request keys remembered: a scheduler asks a handful of questions; more only costs a rebuilt part. */
const KEYS_KEPT = 64;

/**
 * Each root's part of the latest request that reached it, so a scheduler asking the same
 * question again pays only for the trees written to since (a claim touches one). One part per
 * root keeps memory at one answer's size whatever the mix of requests; a different request
 * replaces it. Keyed by the index's own nodes, so a rebuilt index starts empty.
 */
export class TreeAnswers {
  private readonly parts = new WeakMap<ProviderNode, TreePart>();
  private readonly keys = new RecentlyUsed<string, RequestKey>(KEYS_KEPT);

  /**
   * The request minus `limit` (a cap only cuts a tree's list short): parts are reused only for
   * the same key. `excludeNested` follows the deployment's trees.
   */
  keyOf(request: CandidateRequest, excludeNested: boolean): RequestKey {
    const { groups, groupPolicy, rootRequired, rootForbidden, sameSubtrees, nestedAware } = request;
    const text = JSON.stringify([groups, groupPolicy, rootRequired, rootForbidden, sameSubtrees, nestedAware, excludeNested]);
    let key = this.keys.get(text);
    if (!key) this.keys.set(text, (key = { text }));
    return key;
  }

  /** The root's part for `key`, if its tree has not changed since. */
  valid(root: ProviderNode, key: RequestKey): TreePart | null {
    const part = this.parts.get(root);
    return part && part.key === key && part.stamp === root.stamp ? part : null;
  }

  keep(index: ProviderIndex, root: ProviderNode, key: RequestKey, candidates: readonly Candidate[]): TreePart {
    const part: TreePart = {
      key, stamp: root.stamp, members: index.tree(root), candidates,
      summarized: takeFromTree(candidates),
    };
    this.parts.set(root, part);
    return part;
  }
}
