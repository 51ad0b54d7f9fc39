import { ProviderNode } from '../index/provider-index.js';

/**
 * What one request group can pick, per anchor root, worked out tree by tree: the combination
 * asks only about the trees it reaches, so `limit` costs the trees it returns, not the whole
 * deployment's.
 */
export interface GroupChoices {
  /** The anchors the group's own walk finds, each once, in the order found. */
  anchors(): Iterable<ProviderNode>;
  /** The anchor's levels (per level, the providers, in new lists), or null when the group has no choice there. */
  at(anchor: ProviderNode): ProviderNode[][] | null;
}

export const NO_CHOICES: GroupChoices = { anchors: () => [], at: () => null };

/** An anchor listed once, the first time a walk meets it. */
export class FirstSeen {
  private readonly seen = new Set<ProviderNode>();

  first(anchor: ProviderNode): boolean {
    if (this.seen.has(anchor)) return false;
    this.seen.add(anchor);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }
}
