import type { ProviderNode } from './provider-index.js';

/** The providers under one key of a reverse index, iterated in the order they joined it. */
export interface Members extends Iterable<ProviderNode> {
  readonly size: number;
  has(node: ProviderNode): boolean;
  /**
   * Where a member comes when iterating (smaller first): sorts the few members of one tree into
   * that order without walking the others. -1 for a non-member.
   */
  rank(node: ProviderNode): number;
}

/** A Set with its members' ranks: joining again keeps the old place, as a Set does. */
export class MemberSet implements Members {
  private readonly joined = new Map<ProviderNode, number>();
  private joins = 0;

  get size(): number {
    return this.joined.size;
  }

  has(node: ProviderNode): boolean {
    return this.joined.has(node);
  }

  rank(node: ProviderNode): number {
    return this.joined.get(node) ?? -1;
  }

  [Symbol.iterator](): Iterator<ProviderNode> {
    return this.joined.keys();
  }

  add(node: ProviderNode): void {
    if (!this.joined.has(node)) this.joined.set(node, this.joins++);
  }

  delete(node: ProviderNode): void {
    this.joined.delete(node);
  }
}

/** The members of one tree, in the tree's own order (in_tree's starting set). */
export function treeMembers(root: ProviderNode, nodes: readonly ProviderNode[]): Members {
  return {
    size: nodes.length,
    has: (node) => node.root === root,
    rank: (node) => (node.root === root ? nodes.indexOf(node) : -1),
    [Symbol.iterator]: () => nodes[Symbol.iterator](),
  };
}
