import type { SqlClient } from '#event-store/index.js';
import type { Projection } from '#projections/runner/projection.js';
import { recordChanges } from '#projections/usage-over-time/usage-over-time.projection.js';
import { UsageOverTimeMemory } from '#projections/usage-over-time/usage-over-time.memory.js';
import type { ClosedHour } from '#projections/usage-over-time/hour-moves.js';
import { replayAllocationEvent } from '#projections/allocations/allocations.memory.js';
import { replayProviderEvent } from '#projections/providers/providers.memory.js';
import { replayResourceClassEvent } from '#projections/resource-classes/resource-classes.memory.js';
import { replayTraitEvent } from '#projections/traits/traits.memory.js';
import { ReadModelMemory, ReplayEvent } from '#projections/runner/read-model-memory.js';
import { memorySequences, memoryTables, SequenceValue, TableRows } from './table-rows.js';

/** A kind of in-memory state; the replays of one kind share one instance (claims move provider rows). */
export interface MemoryKind<S> {
  readonly key: string;
  create(): S;
  tables(state: S): TableRows[];
  sequences?(state: S): SequenceValue[];
  /** What is already final while the replay goes on (all of it when `all`), to be written early and forgotten here. */
  drain?(state: S, all: boolean): TableRows[];
  /** drain() before its rows are made: plain data for another thread to make them (usage-rows.ts). */
  drainHours?(state: S, all: boolean): ClosedHour[];
  /** Once every row is written and indexed: what came too late for its rows, applied with SQL; how many. */
  settle?(state: S, client: SqlClient): Promise<number>;
}

/** The in-memory twin of one SQL projection, for the same event types. */
export interface MemoryReplay<S = any> {
  readonly projection: string;
  readonly handles: readonly string[];
  readonly kind: MemoryKind<S>;
  apply(state: S, event: ReplayEvent): void;
}

const CORE: MemoryKind<ReadModelMemory> = { key: 'core', create: () => new ReadModelMemory(), tables: memoryTables, sequences: memorySequences };
const USAGE: MemoryKind<UsageOverTimeMemory> = {
  key: 'usage-over-time',
  create: () => new UsageOverTimeMemory(),
  tables: (state) => [...state.tables()],
  drain: (state, all) => state.drain(all),
  drainHours: (state, all) => state.drainHours(all),
  // The projection's own SQL, as if these events had just been appended.
  settle: async (state, client) => {
    for (const { moves, changes, at } of state.late()) await recordChanges(client, moves, changes, at);
    return state.late().length;
  },
};

export const MEMORY_REPLAYS: readonly MemoryReplay[] = [
  { projection: 'providers', handles: ['ResourceProviderCreated', 'ResourceProviderUpdated', 'ResourceProviderDeleted', 'InventoriesSet', 'TraitsSet', 'AggregatesSet'], kind: CORE, apply: replayProviderEvent },
  { projection: 'resource-classes', handles: ['ResourceClassCreated', 'ResourceClassRenamed', 'ResourceClassDeleted'], kind: CORE, apply: replayResourceClassEvent },
  { projection: 'traits', handles: ['TraitCreated', 'TraitDeleted'], kind: CORE, apply: replayTraitEvent },
  { projection: 'allocations', handles: ['ConsumerAllocationsReplaced', 'ConsumerRemoved', 'ProviderAllocationsChanged'], kind: CORE, apply: replayAllocationEvent },
  { projection: 'usage-over-time', handles: new UsageOverTimeMemory().handles, kind: USAGE, apply: (state: UsageOverTimeMemory, event) => state.apply(event) },
];

/**
 * The twins of a set of projections, applied as the inline projector applies them: one
 * transaction's events at a time, projection by projection in the registered order.
 */
export class MemoryReplaySet {
  private readonly states = new Map<MemoryKind<unknown>, unknown>();
  private readonly twins: { readonly handles: ReadonlySet<string>; apply(event: ReplayEvent): void }[] = [];
  private drained: TableRows[] | null = null;
  /** Closed hours not made rows of yet, when their rows are made apart. */
  private drainedHours: ClosedHour[] | null = null;

  constructor(replays: readonly MemoryReplay[]) {
    for (const replay of replays) {
      if (!this.states.has(replay.kind)) this.states.set(replay.kind, replay.kind.create());
      const state = this.states.get(replay.kind);
      this.twins.push({ handles: new Set(replay.handles), apply: (event: ReplayEvent) => replay.apply(state, event) });
    }
  }

  /** The events of one transaction of the log. */
  applyTransaction(events: readonly ReplayEvent[]): void {
    for (const twin of this.twins) {
      for (const event of events) if (twin.handles.has(event.type)) twin.apply(event);
    }
    if (this.drained) this.collect(false);
  }

  /**
   * From now on, what is already final is taken out after each transaction, for takeDrained();
   * `hoursApart`: closed hours as plain moves, for takeDrainedHours(), their rows made elsewhere.
   */
  drainAsYouGo(hoursApart = false): void {
    this.drained ??= [];
    if (hoursApart) this.drainedHours ??= [];
  }

  /** The closed hours taken out since the last call (with drainAsYouGo(true)). */
  takeDrainedHours(): ClosedHour[] {
    const hours = this.drainedHours ?? [];
    if (this.drainedHours) this.drainedHours = [];
    return hours;
  }

  /** What was drained since the last call; with `all`, everything not drained yet too (the log has ended). */
  takeDrained(all = false): TableRows[] {
    this.drainAsYouGo();
    if (all) this.collect(true);
    const drained = this.drained!;
    this.drained = [];
    return drained;
  }

  private collect(all: boolean): void {
    for (const [kind, state] of this.states) {
      if (this.drainedHours && kind.drainHours) {
        this.drainedHours.push(...kind.drainHours(state, all));
        continue;
      }
      if (!kind.drain) continue;
      for (const table of kind.drain(state, all)) if (table.rows.length > 0) this.drained!.push(table);
    }
  }

  tables(): TableRows[] {
    return [...this.states].flatMap(([kind, state]) => kind.tables(state));
  }

  sequences(): SequenceValue[] {
    return [...this.states].flatMap(([kind, state]) => kind.sequences?.(state) ?? []);
  }

  /** In the caller's transaction, with the target schema first on the search path. */
  async settle(client: SqlClient): Promise<number> {
    let settled = 0;
    for (const [kind, state] of this.states) settled += (await kind.settle?.(state, client)) ?? 0;
    return settled;
  }
}

export type MemoryPlan =
  | { readonly kind: 'memory'; create(): MemoryReplaySet }
  | { readonly kind: 'sql'; readonly reason: string };

/**
 * Memory replay only when every projection has a twin handling exactly its event types;
 * otherwise the projections' own SQL is replayed, slower but right for any projection.
 */
export function planMemoryReplay(projections: readonly Projection[], replays: readonly MemoryReplay[] = MEMORY_REPLAYS): MemoryPlan {
  const byName = new Map(replays.map((replay) => [replay.projection, replay]));
  const uncovered = projections.filter((projection) => {
    const twin = byName.get(projection.name);
    return !twin || !sameSet(twin.handles, projection.handles);
  });
  if (uncovered.length > 0) {
    return { kind: 'sql', reason: `no in-memory replay for projection(s) ${uncovered.map((p) => p.name).join(', ')}` };
  }
  const twins = projections.map((projection) => byName.get(projection.name)!);
  return { kind: 'memory', create: () => new MemoryReplaySet(twins) };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((x) => set.has(x));
}
