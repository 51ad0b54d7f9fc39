import { ActiveProvider, ProviderState } from '#domain/index.js';
import { Change, ChangeJournal } from './change-journal.js';
import { Room, roomsOf } from './room.js';

/**
 * The index as plain data: live providers in the index's own order, and every order the
 * search can see (children, reverse indexes' members) as positions in that list, so a restored
 * index lists and iterates exactly as the one it was taken from.
 */
export interface ProviderIndexSnapshot {
  readonly states: readonly ActiveProvider[];
  /** Per provider, its children's positions, in their order. */
  readonly children: readonly (readonly number[])[];
  readonly byClass: readonly (readonly [string, readonly number[]])[];
  readonly byTrait: readonly (readonly [string, readonly number[]])[];
  readonly byAggregate: readonly (readonly [string, readonly number[]])[];
}

/** A snapshot whose parts do not fit together: it was damaged, not taken from an index. */
export class UnreadableSnapshot extends Error {}

/** The trait upstream reads to decide which providers lend their inventory through aggregates. */
export const SHARES_VIA_AGGREGATE = 'MISC_SHARES_VIA_AGGREGATE';

/** One live provider with its place in its tree; `state` is the domain's own ActiveProvider. */
export interface ProviderNode {
  readonly uuid: string;
  state: ActiveProvider;
  parent: ProviderNode | null;
  root: ProviderNode;
  readonly children: ProviderNode[];
  traits: ReadonlySet<string>;
  aggregates: ReadonlySet<string>;
  /** Per class, what is left to allocate (from `state`). */
  rooms: ReadonlyMap<string, Room>;
  /**
   * On a root: when its tree last changed (a member's state, a member joining, leaving or
   * moving), from a clock of the index that only goes forward, so an answer kept for the tree
   * (reuse/tree-answers.ts) is known still true by one comparison. Meaningless on other providers.
   */
  stamp: number;
  /** When this provider last changed as an answer shows it (its state, or its root), from the same clock. */
  changed: number;
}

/** A provider's change, as the index's journal tells it. */
export type ProviderChange = Change<ProviderNode>;

const EMPTY: ReadonlySet<ProviderNode> = new Set();

function addTo<K>(index: Map<K, Set<ProviderNode>>, key: K, node: ProviderNode): void {
  let members = index.get(key);
  if (!members) index.set(key, (members = new Set()));
  members.add(node);
}

function removeFrom<K>(index: Map<K, Set<ProviderNode>>, key: K, node: ProviderNode): void {
  const members = index.get(key);
  if (!members) return;
  members.delete(node);
  if (members.size === 0) index.delete(key);
}

/** Whether the state's classes are exactly `classes`. */
function sameClasses(inventories: object, classes: ReadonlySet<string>): boolean {
  const before = Object.keys(inventories);
  return before.length === classes.size && before.every((rc) => classes.has(rc));
}

/** Whether every class's usage stayed or went up. */
function usedMore(before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): boolean {
  for (const rc in before) if ((after[rc] ?? 0) < before[rc]) return false;
  return true;
}

/** Keeps a reverse index (key -> providers) in step with one facet of a provider. */
function syncFacet<K>(index: Map<K, Set<ProviderNode>>, node: ProviderNode, before: Iterable<K>, after: ReadonlySet<K>): void {
  for (const key of before) if (!after.has(key)) removeFrom(index, key, node);
  for (const key of after) addTo(index, key, node);
}

/**
 * Every live provider with its tree, inventories, usage, traits and aggregates, plus the
 * reverse indexes the candidate search narrows with. Changed only through `put`, with the
 * states the domain's evolveProvider produces, so it is exactly the log's view.
 */
export class ProviderIndex {
  private readonly nodes = new Map<string, ProviderNode>();
  private readonly byClass = new Map<string, Set<ProviderNode>>();
  private readonly byTrait = new Map<string, Set<ProviderNode>>();
  private readonly byAggregate = new Map<string, Set<ProviderNode>>();
  private nested = 0;
  /** Per class, how many providers below a root hold it (heldByRootsOnly). */
  private readonly belowRoots = new Map<string, number>();
  /** The last stamp given to a changed tree. */
  private clock = 0;
  /** Each subtree's members as last listed; emptied whenever any provider joins, leaves or moves. */
  private trees = new Map<ProviderNode, readonly ProviderNode[]>();
  private readonly journal = new ChangeJournal<ProviderNode>();

  get size(): number {
    return this.nodes.size;
  }

  /** The index's clock: it moves forward with every change, so an unchanged value means an unchanged index. */
  get version(): number {
    return this.clock;
  }

  /** The providers changed since the clock read `version`, or null where the index cannot tell (change-journal.ts). */
  changesSince(version: number): ProviderChange[] | null {
    return this.journal.since(version);
  }

  get(uuid: string): ProviderNode | undefined {
    return this.nodes.get(uuid);
  }

  stateOf(uuid: string): ProviderState | undefined {
    return this.nodes.get(uuid)?.state;
  }

  /** Upstream's _has_provider_trees: whether any provider has a parent. */
  get hasTrees(): boolean {
    return this.nested > 0;
  }

  /**
   * Whether no provider below a root holds any of the classes: a group of them is then met only
   * by roots, each whole, however many trees the deployment has. Follows the providers' classes
   * and places, which only a reshaping change moves (change-journal.ts).
   */
  heldByRootsOnly(classes: Iterable<string>): boolean {
    for (const rc of classes) if (this.belowRoots.has(rc)) return false;
    return true;
  }

  withClass(resourceClass: string): ReadonlySet<ProviderNode> {
    return this.byClass.get(resourceClass) ?? EMPTY;
  }

  withTrait(trait: string): ReadonlySet<ProviderNode> {
    return this.byTrait.get(trait) ?? EMPTY;
  }

  inAggregate(aggregate: string): ReadonlySet<ProviderNode> {
    return this.byAggregate.get(aggregate) ?? EMPTY;
  }

  get sharing(): ReadonlySet<ProviderNode> {
    return this.withTrait(SHARES_VIA_AGGREGATE);
  }

  roots(): ProviderNode[] {
    const roots: ProviderNode[] = [];
    for (const node of this.nodes.values()) if (node.parent === null) roots.push(node);
    return roots;
  }

  /**
   * The root and every descendant, parents before children. Kept between calls: a search asks
   * for each tree it reaches once per request group, and trees change far less often than usage.
   */
  tree(root: ProviderNode): readonly ProviderNode[] {
    let members = this.trees.get(root);
    if (!members) {
      const listed = [root];
      for (let i = 0; i < listed.length; i++) for (const child of listed[i].children) listed.push(child);
      this.trees.set(root, (members = listed));
    }
    return members;
  }

  toSnapshot(): ProviderIndexSnapshot {
    const nodes = [...this.nodes.values()];
    const at = new Map(nodes.map((node, i) => [node, i]));
    const members = (index: Map<string, Set<ProviderNode>>) =>
      [...index].map(([key, set]) => [key, [...set].map((node) => at.get(node)!)] as const);
    return {
      states: nodes.map((node) => node.state),
      children: nodes.map((node) => node.children.map((child) => at.get(child)!)),
      byClass: members(this.byClass), byTrait: members(this.byTrait), byAggregate: members(this.byAggregate),
    };
  }

  /** The index a snapshot was taken from; throws UnreadableSnapshot if its parts contradict each other. */
  static fromSnapshot(snapshot: ProviderIndexSnapshot): ProviderIndex {
    const index = new ProviderIndex();
    const nodes = snapshot.states.map((state): ProviderNode => {
      if (state?.status !== 'active' || index.nodes.has(state.uuid)) throw new UnreadableSnapshot('a provider is not active or listed twice');
      const node: ProviderNode = {
        uuid: state.uuid, state, parent: null, root: null as unknown as ProviderNode, children: [],
        traits: new Set(state.traits), aggregates: new Set(state.aggregates), rooms: roomsOf(state), stamp: 0, changed: 0,
      };
      node.root = node;
      index.nodes.set(node.uuid, node);
      return node;
    });
    const nodeAt = (i: number) => nodes[i] ?? fail(`no provider at ${i}`);
    if (snapshot.children.length !== nodes.length) fail('children do not match the providers');
    snapshot.children.forEach((children, i) => {
      for (const child of children.map(nodeAt)) {
        if (child.parent || child === nodes[i]) fail('a provider has two parents');
        child.parent = nodes[i];
        nodes[i].children.push(child);
        index.nested++;
      }
    });
    let reached = 0;
    for (const node of nodes) {
      if (node.parent) continue;
      for (const member of index.tree(node)) {
        member.root = node;
        reached++;
      }
    }
    // A cycle has no root, so its members are never reached.
    if (reached !== nodes.length) fail('the trees have a cycle');
    for (const node of nodes) if (node.parent) index.countBelowRoots(Object.keys(node.state.inventories), 1);
    index.trees = new Map();
    const restore = (target: Map<string, Set<ProviderNode>>, from: ProviderIndexSnapshot['byClass']) => {
      for (const [key, members] of from) target.set(key, new Set(members.map(nodeAt)));
    };
    restore(index.byClass, snapshot.byClass);
    restore(index.byTrait, snapshot.byTrait);
    restore(index.byAggregate, snapshot.byAggregate);
    return index;
  }

  /** Takes the provider's new state; anything but an active provider removes it. */
  put(uuid: string, state: ProviderState): void {
    if (state.status !== 'active') return this.remove(uuid);
    const node = this.nodes.get(uuid);
    if (!node) return this.insert(state);
    const before = node.state;
    node.state = state;
    const classes = before.inventories === state.inventories ? null : new Set(Object.keys(state.inventories));
    const reclassed = classes !== null && !sameClasses(before.inventories, classes);
    // Counted where the provider stood: a move then counts its classes out of or into the roots' (reparent).
    if (reclassed && node.parent) {
      this.countBelowRoots(Object.keys(before.inventories), -1);
      this.countBelowRoots(classes, 1);
    }
    // Whether what a search walks, and in which order, may have changed: the journal cannot tell such a change.
    let reshaped = false;
    if (before.parentUuid !== state.parentUuid) {
      this.reparent(node, state.parentUuid);
      reshaped = true;
    }
    if (before.traits !== state.traits) {
      const traits = new Set(state.traits);
      syncFacet(this.byTrait, node, node.traits, traits);
      node.traits = traits;
      reshaped = true;
    }
    if (before.aggregates !== state.aggregates) {
      const aggregates = new Set(state.aggregates);
      syncFacet(this.byAggregate, node, node.aggregates, aggregates);
      node.aggregates = aggregates;
      reshaped = true;
    }
    if (reclassed) {
      syncFacet(this.byClass, node, Object.keys(before.inventories), classes);
      reshaped = true;
    }
    if (before.inventories !== state.inventories || before.usages !== state.usages) node.rooms = roomsOf(state);
    this.touch(node.root);
    node.changed = this.clock;
    if (reshaped) this.journal.reshape(this.clock);
    else this.journal.record(this.clock, { node, shrank: before.inventories === state.inventories && usedMore(before.usages, state.usages) });
  }

  private countBelowRoots(classes: Iterable<string>, by: 1 | -1): void {
    for (const rc of classes) {
      const count = (this.belowRoots.get(rc) ?? 0) + by;
      if (count === 0) this.belowRoots.delete(rc);
      else this.belowRoots.set(rc, count);
    }
  }

  private touch(root: ProviderNode): void {
    root.stamp = ++this.clock;
  }

  private insert(state: ActiveProvider): void {
    this.trees = new Map();
    const node: ProviderNode = {
      uuid: state.uuid, state, parent: null, root: null as unknown as ProviderNode, children: [],
      traits: new Set(state.traits), aggregates: new Set(state.aggregates), rooms: roomsOf(state), stamp: 0, changed: 0,
    };
    node.root = node;
    this.nodes.set(node.uuid, node);
    this.reparent(node, state.parentUuid);
    node.changed = this.clock;
    for (const trait of node.traits) addTo(this.byTrait, trait, node);
    for (const aggregate of node.aggregates) addTo(this.byAggregate, aggregate, node);
    for (const rc of Object.keys(state.inventories)) addTo(this.byClass, rc, node);
    this.journal.reshape(this.clock);
  }

  private remove(uuid: string): void {
    const node = this.nodes.get(uuid);
    if (!node) return;
    this.trees = new Map();
    this.reparent(node, null);
    for (const child of [...node.children]) this.reparent(child, null);
    for (const trait of node.traits) removeFrom(this.byTrait, trait, node);
    for (const aggregate of node.aggregates) removeFrom(this.byAggregate, aggregate, node);
    for (const rc of Object.keys(node.state.inventories)) removeFrom(this.byClass, rc, node);
    this.nodes.delete(uuid);
    this.journal.reshape(this.clock);
  }

  /** A new parent moves the whole subtree under the parent's root, as upstream. */
  private reparent(node: ProviderNode, parentUuid: string | null): void {
    this.trees = new Map();
    this.touch(node.root);
    const wasBelow = node.parent !== null;
    if (node.parent) {
      const siblings = node.parent.children;
      siblings.splice(siblings.indexOf(node), 1);
      this.nested--;
    }
    const parent = parentUuid === null ? null : this.nodes.get(parentUuid) ?? null;
    node.parent = parent;
    if (wasBelow !== (parent !== null)) this.countBelowRoots(Object.keys(node.state.inventories), parent ? 1 : -1);
    if (parent) {
      parent.children.push(node);
      this.nested++;
    }
    const root = parent ? parent.root : node;
    this.touch(root);
    for (const member of this.tree(node)) {
      member.root = root;
      member.changed = this.clock;
    }
  }
}

function fail(reason: string): never {
  throw new UnreadableSnapshot(reason);
}
