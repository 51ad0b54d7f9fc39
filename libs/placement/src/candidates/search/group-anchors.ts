import { ProviderNode } from '../index/provider-index.js';

/**
 * One request group's anchors (the roots a candidate can hang from), in the order the group
 * finds them, and per anchor what it can pick: one list of providers per level. The anchors take
 * one pass over the group's providers; an anchor's choices are built when the combination
 * reaches it, so a capped search builds them only for the trees it visits.
 */
export interface GroupAnchors {
  readonly size: number;
  has(anchor: ProviderNode): boolean;
  /** In the group's own order. */
  anchors(): Iterable<ProviderNode>;
  /** Built anew on each call (the combination asks once per anchor), only for one of `anchors()`. */
  choices(anchor: ProviderNode): ProviderNode[][];
}

export function groupAnchors(order: ReadonlySet<ProviderNode>, choices: (anchor: ProviderNode) => ProviderNode[][]): GroupAnchors {
  return { size: order.size, has: (anchor) => order.has(anchor), anchors: () => order, choices };
}

/** Per anchor, what it was lent: kept in the order lenders were met. */
export class Lent {
  private readonly byAnchor = new Map<ProviderNode, ProviderNode[]>();

  add(anchor: ProviderNode, node: ProviderNode): void {
    const nodes = this.byAnchor.get(anchor);
    if (nodes) nodes.push(node);
    else this.byAnchor.set(anchor, [node]);
  }

  to(anchor: ProviderNode): readonly ProviderNode[] {
    return this.byAnchor.get(anchor) ?? [];
  }
}
