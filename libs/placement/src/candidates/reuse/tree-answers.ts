import { RecentlyUsed } from '../../shared/recently-used.js';
import { ProviderIndex, ProviderNode } from '../index/provider-index.js';
import { CandidateRequest } from '../request.js';
import { Candidate } from '../search/candidate.js';

/**
 * Every candidate one tree gave a request, with the tree as it stood (its stamp, its members).
 * Without sharing providers a tree's candidates depend only on its own providers and the
 * request, so while the tree's stamp is unchanged they are still the answer.
 */
export interface TreePart {
  readonly key: RequestKey;
  readonly stamp: number;
  /** The name catalog's version (answer-reuse.ts: the one rule). */
  readonly names: number;
  readonly members: readonly ProviderNode[];
  readonly candidates: readonly Candidate[];
  /** Whether a candidate takes from the tree, so that its providers are summarized. */
  readonly summarized: boolean;
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
 * Parts one root keeps, one per request: a boot storm asks a different flavor after every claim,
 * so a root keeping only the latest request's part would have it replaced before it was asked again.
 */
const PARTS_PER_ROOT = 16;

/**
 * Each root's parts of the requests that reached it lately, so a scheduler asking any of its
 * questions again pays only for the trees written to since (a claim touches one). A root keeps
 * at most PARTS_PER_ROOT parts, each a different request's, the oldest going first, and none from
 * before its tree last changed: memory stays at a few answers' size whatever the mix of requests.
 * Keyed by the index's own nodes, so a rebuilt index starts empty.
 */
export class TreeAnswers {
  private readonly parts = new WeakMap<ProviderNode, TreePart[]>();
  private readonly keys = new RecentlyUsed<string, RequestKey>(KEYS_KEPT);

  /** `dropped`: told of each part let go (replaced, stale or the root's oldest), so what was made of it can go too. */
  constructor(private readonly dropped?: (part: TreePart) => void) {}

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

  /** The root's part for `key`, if neither its tree nor the catalog (version `names`) has changed since. */
  valid(root: ProviderNode, key: RequestKey, names: number): TreePart | null {
    const part = this.parts.get(root)?.find((kept) => kept.key === key);
    return part && part.stamp === root.stamp && part.names === names ? part : null;
  }

  keep(index: ProviderIndex, root: ProviderNode, key: RequestKey, names: number, candidates: readonly Candidate[]): TreePart {
    const part: TreePart = {
      key, stamp: root.stamp, names, members: index.tree(root), candidates,
      summarized: takeFromTree(candidates),
    };
    const before = this.parts.get(root) ?? [];
    // The same request's part is replaced; a part from before the tree or the catalog changed can never be valid again.
    const kept = before.filter((other) => other.key !== key && other.stamp === root.stamp && other.names === names);
    if (kept.length >= PARTS_PER_ROOT) kept.shift();
    kept.push(part);
    this.parts.set(root, kept);
    if (this.dropped) for (const other of before) if (!kept.includes(other)) this.dropped(other);
    return part;
  }
}
