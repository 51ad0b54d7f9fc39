import { ProviderIndex, ProviderNode, SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { CandidateRequest } from '../request.js';
import { Explain } from './explain.js';
import { CheckedGroup } from './group-context.js';
import { traitsMet } from './multi-provider.js';
import { GroupChoices } from './group-choices.js';
import { inSameSubtree } from './same-subtree.js';
import { Candidate, LevelLayout, PickedCandidate } from './candidate.js';
import { breadthFirst } from './breadth-first.js';
import { distinctPicksAtLeast } from './distinct-picks.js';
import { RequestKey, TreeAnswers, TreeSlice } from '../reuse/tree-answers.js';
import { PAUSE_EVERY } from './steps.js';

export type { Candidate } from './candidate.js';

export interface GroupPlan {
  readonly ctx: CheckedGroup;
  readonly choices: GroupChoices;
  /** The unsuffixed group spread over a tree: one level per class instead of one per group. */
  readonly multi: boolean;
}

export interface CombineOptions {
  /** Stop once this many candidates exist (limit and the generation cap). */
  readonly cap: number | null;
  /** Below 1.29 on a deployment with trees: no two providers of one tree in a candidate. */
  readonly excludeNested: boolean;
  readonly shuffle: (<T>(items: T[]) => T[]) | null;
  /** upstream's breadth-first generation strategy: one candidate of each tree in turn. */
  readonly breadthFirst?: boolean;
  /**
   * Trees' candidates kept from earlier requests (tree-answers.ts), for the depth-first,
   * unshuffled walk of a deployment without sharing providers, where a tree's candidates are its own.
   */
  readonly reuse?: {
    readonly answers: TreeAnswers; readonly index: ProviderIndex; readonly key: RequestKey; readonly names: number;
    /** The index's clock when the search began: a tree stamped later changed while it ran. */
    readonly since: number;
  } | null;
  /** performance.now() past which generation stops (SearchOptions.deadline). */
  readonly deadline?: number;
  /**
   * An answer without a cap is refused past this many candidates (search.ts): generation stops,
   * and `beyondCeiling` says so, as soon as a tree is sure to give more than are left, before it
   * is walked. Sure of picks of distinct providers, one per suffixed group, each able to give its
   * group alone: each is a candidate under either group policy, as long as no same_subtree, no
   * unsuffixed group spread over the tree and no provider lending to several trees has a say.
   */
  readonly ceiling?: number;
}

/** How many steps pass between two readings of the clock: reading it costs more than a step. */
const CLOCK_EVERY = 1024;

const sameOrder = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((level, i) => level === b[i]);

interface Level {
  readonly plan: number;
  readonly resources: ReadonlyArray<readonly [string, number]>;
  readonly granular: boolean;
}

/**
 * Picks one choice per level, tree by tree (upstream's _merge_candidates), and prunes a prefix
 * as soon as it cannot lead to a candidate: capacity exceeded where groups add up, a provider
 * reused under group_policy=isolate, two providers of one tree below 1.29, the unsuffixed
 * group's traits or a same_subtree constraint unmet once all their levels are placed.
 * Generation stops at the cap, so `limit` never costs more than the candidates it returns.
 */
export class Combiner {
  private candidates: Candidate[] = [];
  /** With `reuse`: the candidates tree by tree, each with the part it was or can be kept as. */
  slices: TreeSlice[] | null = null;
  /** The cap of the run under way: the whole search's, or one tree's when taken breadth-first. */
  private limit: number | null;
  /** Candidates only sharing providers made: their identity, for removing repeats across trees. */
  private readonly keys = new WeakMap<Candidate, string>();
  private readonly levels: Level[] = [];
  private readonly levelsOf: number[][] = [];
  private readonly subtreeGroups: number[][];
  private readonly subtreeLevels: number[][];
  /** Classes more than one level asks for: only there can levels crowd each other out. */
  private readonly contested: string[];
  private readonly scratch: ProviderNode[] = [];
  private readonly layout: LevelLayout;
  private readonly isolate: boolean;
  /** Each level a suffixed group, with no same_subtree: any distinct picks, one per level, make a candidate. */
  private readonly distinctPicksAreCandidates: boolean;
  private seen = new Set<string>();
  private visited = 0;
  private pruned = 0;
  // Per-tree search state.
  private choices: ProviderNode[][] = [];
  private order: number[] = [];
  private closing: { groups: number[]; subtrees: number[] }[] = [];
  private readonly closingByOrder = new Map<string, { groups: number[]; subtrees: number[] }[]>();
  private readonly picked: ProviderNode[] = [];
  /** The walk's stack (walk()): per depth, the next choice to try and the provider placed. */
  private readonly next: number[] = [];
  private readonly placed: (ProviderNode | null)[] = [];
  private readonly load = new Map<ProviderNode, Map<string, number>>();
  /** Per class: what the tree's candidate providers can still give, what the placed levels took, what the rest needs. */
  private readonly supply = new Map<string, number>();
  private readonly taken = new Map<string, number>();
  private need: Map<string, number>[] = [];
  private readonly granularUse = new Map<ProviderNode, number>();
  private readonly rootUse = new Map<ProviderNode, { provider: ProviderNode; count: number }>();

  constructor(private readonly plans: readonly GroupPlan[], request: CandidateRequest, private readonly options: CombineOptions) {
    this.limit = options.cap;
    plans.forEach((plan, index) => {
      const { group, granular } = plan.ctx;
      const parts = plan.multi ? group.resources.map((r) => [r]) : [group.resources];
      this.levelsOf.push(parts.map((resources) => this.levels.push({ plan: index, resources, granular }) - 1));
    });
    const suffixes = plans.map((plan) => plan.ctx.group.suffix);
    this.subtreeGroups = request.sameSubtrees.map((constraint) => constraint.map((s) => suffixes.indexOf(s)).filter((i) => i >= 0));
    this.isolate = request.groupPolicy === 'isolate';
    this.distinctPicksAreCandidates = this.subtreeGroups.length === 0 && !options.excludeNested && this.levels.every((level) => level.granular);
    const askers = new Map<string, number>();
    for (const level of this.levels) for (const [rc] of level.resources) askers.set(rc, (askers.get(rc) ?? 0) + 1);
    this.contested = [...askers].filter(([, count]) => count > 1).map(([rc]) => rc);
    this.subtreeLevels = this.subtreeGroups.map((groups) => groups.flatMap((p) => this.levelsOf[p]));
    this.layout = {
      resources: this.levels.map((level) => level.resources),
      groups: plans.map((plan, p) => ({ suffix: plan.ctx.group.suffix, levels: this.levelsOf[p] })),
    };
  }

  get full(): boolean {
    return this.limit !== null && this.candidates.length >= this.limit;
  }

  /** Generation stopped at the deadline: the candidates are the first ones, not all. */
  timedOut = false;

  /** Generation stopped since the candidates were sure to exceed CombineOptions.ceiling. */
  beyondCeiling = false;

  /** Generation stopped before a tree's candidates were all found. */
  private get cut(): boolean {
    return this.full || this.timedOut || this.beyondCeiling;
  }

  /** At the cap, past the deadline, or sure to be refused. */
  private get done(): boolean {
    if (this.cut) return true;
    const deadline = this.options.deadline;
    if (deadline !== undefined && this.visited % CLOCK_EVERY === 0 && performance.now() >= deadline) this.timedOut = true;
    return this.timedOut;
  }

  /**
   * The anchors every group reaches, with each group's levels there, in the first group's order
   * (upstream's depth-first generation walks the first group's anchors). Unshuffled, each is
   * worked out as the combination reaches it, so a capped search skips the rest.
   */
  *reached(): Generator<ProviderNode[][][]> {
    for (const anchor of this.plans[0].choices.anchors()) {
      const levels = this.levelsAt(anchor);
      if (levels) yield levels;
    }
  }

  /** Each group's levels at the anchor, or null where one group has none. */
  private levelsAt(anchor: ProviderNode): ProviderNode[][][] | null {
    const levels: ProviderNode[][][] = [];
    for (const plan of this.plans) {
      const at = plan.choices.at(anchor);
      if (!at) return null;
      levels.push(at);
    }
    return levels;
  }

  /** The candidates; the generator pauses every PAUSE_EVERY steps (see searchSteps). */
  *run(explain: Explain): Generator<void, Candidate[]> {
    const shuffle = this.options.shuffle;
    let trees = 0;
    const reuse = this.options.reuse;
    if (reuse && !shuffle && !this.options.breadthFirst) {
      trees = yield* this.reusing(reuse);
    } else if (this.options.breadthFirst) {
      const all = shuffle ? shuffle([...this.reached()]) : [...this.reached()];
      trees = all.length;
      this.candidates = yield* breadthFirst(all, this.options.cap, (levels, limit) => this.treeAlone(levels, limit), (c) => this.keys.get(c));
    } else {
      for (const levels of shuffle ? shuffle([...this.reached()]) : this.reached()) {
        if (this.done) break;
        trees++;
        yield* this.generate(levels);
      }
    }
    explain.record('trees combined', trees);
    explain.record('combinations tried', this.visited);
    explain.record('combinations pruned', this.pruned);
    explain.record('candidates', this.candidates.length);
    return this.candidates;
  }

  /**
   * The depth-first walk, tree by tree, taking a tree's kept part where its tree is unchanged
   * and keeping what the others give. A tree the cap cut short may have had more, so it is not kept.
   */
  private *reusing({ answers, index, key, names, since }: NonNullable<CombineOptions['reuse']>): Generator<void, number> {
    const slices: TreeSlice[] = (this.slices = []);
    let trees = 0;
    for (const root of this.plans[0].choices.anchors()) {
      if (this.done) break;
      let part = answers.valid(root, key, names);
      let taken: readonly Candidate[];
      if (part) {
        const room = this.limit === null ? part.candidates.length : this.limit - this.candidates.length;
        taken = part.candidates.length <= room ? part.candidates : part.candidates.slice(0, room);
        for (const candidate of taken) this.candidates.push(candidate);
      } else {
        const from = this.candidates.length;
        const levels = this.levelsAt(root);
        if (levels) yield* this.generate(levels);
        taken = this.candidates.slice(from);
        // Not kept where a claim folded in while the search paused moved the tree: its candidates came from the rooms before.
        if (!this.cut && root.stamp <= since) part = answers.keep(index, root, key, names, taken);
      }
      if (taken.length === 0) continue;
      trees++;
      slices.push({ root, members: part ? part.members : index.tree(root), candidates: taken, part });
    }
    return trees;
  }

  private *generate(levels: ProviderNode[][][]): Generator<void, void> {
    const oneChoice = this.levels.length === 1 && !(this.plans[0].multi && this.plans[0].ctx.group.requiredTraits.length > 0);
    if (oneChoice) yield* this.single(levels[0][0]);
    else yield* this.tree(levels);
  }

  /** One tree's first candidates, depth-first, as if it were the only tree (repeats are removed later). */
  private *treeAlone(levels: ProviderNode[][][], limit: number | null): Generator<void, Candidate[]> {
    this.candidates = [];
    this.limit = limit;
    this.seen = new Set();
    yield* this.generate(levels);
    return this.candidates;
  }

  /** One group met by one provider (the flat case): every choice is a candidate, nothing to prune. */
  private *single(nodes: ProviderNode[]): Generator<void, void> {
    for (const node of this.options.shuffle ? this.options.shuffle(nodes) : nodes) {
      if (this.done) return;
      if (++this.visited % PAUSE_EVERY === 0) yield;
      this.picked[0] = node;
      this.record();
    }
  }

  private *tree(levelsByPlan: ProviderNode[][][]): Generator<void, void> {
    const shuffle = this.options.shuffle;
    const choices = this.choices;
    levelsByPlan.forEach((levels, p) => levels.forEach((nodes, i) => {
      choices[this.levelsOf[p][i]] = shuffle ? shuffle(nodes) : nodes;
    }));
    // Fewest choices first: the same candidates, found with less backtracking. Trees of one
    // deployment mostly share an order, so its checks are worked out once.
    const order = this.levels.map((_l, i) => i);
    if (order.length > 1) order.sort((a, b) => choices[a].length - choices[b].length);
    if (!sameOrder(order, this.order)) {
      const key = order.join(',');
      let closing = this.closingByOrder.get(key);
      if (!closing) this.closingByOrder.set(key, (closing = this.closingFor(order)));
      this.closing = closing;
      this.order = order;
    }
    if (this.sureBeyondCeiling()) {
      this.beyondCeiling = true;
      return;
    }
    this.bound();
    yield* this.walk();
  }

  /** Whether this tree's picks alone would take the candidates past the ceiling (CombineOptions.ceiling). */
  private sureBeyondCeiling(): boolean {
    const { ceiling } = this.options;
    if (ceiling === undefined || !this.distinctPicksAreCandidates) return false;
    const left = ceiling - this.candidates.length;
    return distinctPicksAtLeast(this.order.map((level) => this.choices[level].length), left) > left;
  }

  /** For a placement order: which checks become decidable after each position. */
  private closingFor(order: number[]): { groups: number[]; subtrees: number[] }[] {
    const position = new Array<number>(this.levels.length);
    order.forEach((level, at) => (position[level] = at));
    const lastOf = (levels: number[]) => Math.max(...levels.map((l) => position[l]));
    const closing = order.map(() => ({ groups: [] as number[], subtrees: [] as number[] }));
    this.plans.forEach((plan, p) => {
      if (plan.multi && plan.ctx.group.requiredTraits.length > 0) closing[lastOf(this.levelsOf[p])].groups.push(p);
    });
    this.subtreeGroups.forEach((groups, s) => {
      if (groups.length > 0) closing[lastOf(groups.flatMap((p) => this.levelsOf[p]))].subtrees.push(s);
    });
    return closing;
  }

  /**
   * What the levels still to place need of each class several levels ask for, against what this
   * tree can still give: a prefix that leaves more to take than is left is dropped without trying
   * its completions. A class only one level asks for is already checked by that level's choices.
   */
  private bound(): void {
    this.need = [];
    if (this.contested.length === 0) return;
    this.supply.clear();
    this.taken.clear();
    const counted = new Set<ProviderNode>();
    for (const level of this.order) {
      for (const node of this.choices[level]) {
        if (counted.has(node)) continue;
        counted.add(node);
        for (const rc of this.contested) {
          const room = node.rooms.get(rc);
          if (room) this.supply.set(rc, (this.supply.get(rc) ?? 0) + Math.max(0, room.free));
        }
      }
    }
    this.need = new Array(this.order.length + 1);
    this.need[this.order.length] = new Map();
    for (let at = this.order.length - 1; at >= 0; at--) {
      const need = new Map(this.need[at + 1]);
      for (const [rc, amount] of this.levels[this.order[at]].resources) if (this.contested.includes(rc)) need.set(rc, (need.get(rc) ?? 0) + amount);
      this.need[at] = need;
    }
  }

  private affordable(at: number): boolean {
    if (this.need.length === 0) return true;
    for (const [rc, amount] of this.need[at]) if (amount > (this.supply.get(rc) ?? 0) - (this.taken.get(rc) ?? 0)) return false;
    return true;
  }

  /**
   * The depth-first walk over the placement order, a level per depth: at each depth the next
   * choice to try, and the provider placed there (taken back before the next is tried or the walk
   * goes up). Kept as a loop over an explicit stack rather than recursion, so it can pause at any
   * step and go on where it stopped.
   */
  private *walk(): Generator<void, void> {
    const depth = this.order.length;
    if (depth === 0) return this.emit();
    if (!this.affordable(0)) {
      this.pruned++;
      return;
    }
    const next = this.next;
    const placed = this.placed;
    next[0] = 0;
    placed[0] = null;
    let at = 0;
    while (at >= 0) {
      const level = this.order[at];
      const held = placed[at];
      if (held) {
        this.unplace(level, held);
        placed[at] = null;
      }
      const choices = this.choices[level];
      if (next[at] >= choices.length || this.done) {
        at--;
        continue;
      }
      const node = choices[next[at]++];
      if (++this.visited % PAUSE_EVERY === 0) yield;
      if (!this.place(level, node)) {
        this.pruned++;
        continue;
      }
      placed[at] = node;
      if (!this.closes(at)) {
        this.pruned++;
        continue;
      }
      const below = at + 1;
      if (below === depth) {
        this.emit();
        continue;
      }
      if (!this.affordable(below)) {
        this.pruned++;
        continue;
      }
      next[below] = 0;
      placed[below] = null;
      at = below;
    }
  }

  private place(level: number, node: ProviderNode): boolean {
    const { resources, granular } = this.levels[level];
    if (granular && this.isolate && this.granularUse.has(node)) return false;
    if (this.options.excludeNested && resources.length > 0) {
      const owner = this.rootUse.get(node.root);
      if (owner && owner.provider !== node) return false;
    }
    let taken = this.load.get(node);
    // A provider nobody took from yet was checked for this level's amounts when it became a choice.
    if (taken) {
      for (const [rc, amount] of resources) {
        const room = node.rooms.get(rc)!;
        const total = (taken.get(rc) ?? 0) + amount;
        if (total > room.free || total > room.max) return false;
      }
    }
    if (resources.length > 0) {
      if (!taken) this.load.set(node, (taken = new Map()));
      for (const [rc, amount] of resources) {
        taken.set(rc, (taken.get(rc) ?? 0) + amount);
        if (this.need.length > 0) this.taken.set(rc, (this.taken.get(rc) ?? 0) + amount);
      }
      if (this.options.excludeNested) {
        const owner = this.rootUse.get(node.root);
        if (owner) owner.count++;
        else this.rootUse.set(node.root, { provider: node, count: 1 });
      }
    }
    if (granular && this.isolate) this.granularUse.set(node, (this.granularUse.get(node) ?? 0) + 1);
    this.picked[level] = node;
    return true;
  }

  private unplace(level: number, node: ProviderNode): void {
    const { resources, granular } = this.levels[level];
    if (granular && this.isolate) {
      const uses = this.granularUse.get(node)! - 1;
      if (uses === 0) this.granularUse.delete(node);
      else this.granularUse.set(node, uses);
    }
    if (resources.length === 0) return;
    const taken = this.load.get(node)!;
    // Emptied entries stay (at 0) so the next pick of this provider allocates nothing.
    for (const [rc, amount] of resources) {
      if (this.need.length > 0) this.taken.set(rc, this.taken.get(rc)! - amount);
      taken.set(rc, taken.get(rc)! - amount);
    }
    if (this.options.excludeNested) {
      const owner = this.rootUse.get(node.root)!;
      if (--owner.count === 0) this.rootUse.delete(node.root);
    }
  }

  /** The checks that become decidable once the level at `at` is placed. */
  private closes(at: number): boolean {
    const { groups, subtrees } = this.closing[at];
    const picked = this.picked;
    for (const p of groups) {
      const levels = this.levelsOf[p];
      const has = (trait: string) => levels.some((l) => picked[l].traits.has(trait));
      if (!traitsMet(this.plans[p].ctx.group.requiredTraits, has)) return false;
    }
    for (const s of subtrees) {
      const nodes = this.scratch;
      nodes.length = 0;
      for (const l of this.subtreeLevels[s]) nodes.push(picked[l]);
      if (!inSameSubtree(nodes)) return false;
    }
    return true;
  }

  private emit(): void {
    this.record();
  }

  private record(): void {
    const candidate = new PickedCandidate(this.layout, [...this.picked]);
    // Only providers that lend to several roots can make two trees yield the same request.
    if (this.picked.every((node) => node.traits.has(SHARES_VIA_AGGREGATE))) {
      const key = JSON.stringify([
        candidate.allocations.map((a) => [a.provider.uuid, [...a.resources].sort()]).sort(),
        candidate.mappings.map(([s, n]) => [s, n.map((x) => x.uuid).sort()]),
      ]);
      if (this.seen.has(key)) return;
      this.seen.add(key);
      this.keys.set(candidate, key);
    }
    this.candidates.push(candidate);
  }
}
