import { ProviderNode } from '../index/provider-index.js';

/**
 * Providers listed per anchor root without an array per anchor: one flat list in the order they
 * were added, each entry pointing to the one before it of the same anchor. A search keeps every
 * anchor's lists alive until it ends; thousands of small arrays living that long are what V8's
 * allocation-site pretenuring moves to the old generation after one uncapped search, and every
 * later search then pays for them in full collections (limit=50 on nested-1000 went from 0.7 to
 * 2 ms of CPU after an uncapped query).
 */
export class ByAnchor {
  private readonly nodes: ProviderNode[] = [];
  /** Per entry, the entry added before it for the same anchor (-1: none). */
  private readonly previous: number[] = [];
  /** Per anchor, its latest entry; a Map keeps the anchors in the order first set. */
  private readonly latest = new Map<ProviderNode, number>();

  get size(): number {
    return this.latest.size;
  }

  add(anchor: ProviderNode, node: ProviderNode): void {
    this.previous.push(this.latest.get(anchor) ?? -1);
    this.latest.set(anchor, this.nodes.push(node) - 1);
  }

  has(anchor: ProviderNode): boolean {
    return this.latest.has(anchor);
  }

  /** In the order of their first provider. */
  anchors(): Iterable<ProviderNode> {
    return this.latest.keys();
  }

  /** Whether some provider of the anchor passes the test: no list is made. */
  some(anchor: ProviderNode, test: (node: ProviderNode) => boolean): boolean {
    for (let at = this.latest.get(anchor) ?? -1; at >= 0; at = this.previous[at]) if (test(this.nodes[at])) return true;
    return false;
  }

  /** The anchor's providers in the order they were added, as a new array. */
  list(anchor: ProviderNode): ProviderNode[] {
    const nodes: ProviderNode[] = [];
    for (let at = this.latest.get(anchor) ?? -1; at >= 0; at = this.previous[at]) nodes.push(this.nodes[at]);
    return nodes.reverse();
  }
}

/**
 * What one request group can pick, per anchor root: the anchors in the group's own order, and
 * an anchor's levels (per level, the providers) listed when the combination reaches it.
 */
export interface GroupChoices {
  readonly size: number;
  has(anchor: ProviderNode): boolean;
  anchors(): Iterable<ProviderNode>;
  /** A new list on each call: the combination asks once per anchor it visits. */
  choices(anchor: ProviderNode): ProviderNode[][];
}
