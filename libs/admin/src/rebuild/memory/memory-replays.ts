import type { SqlClient } from '#event-store/index.js';
import type { Projection, ProjectionTwin } from '#projections/runner/projection.js';
import { ProjectionSet } from '#projections/runner/projection-set.js';
import { recordChanges } from '#projections/usage-over-time/usage-over-time.projection.js';
import { UsageOverTimeMemory } from '#projections/usage-over-time/usage-over-time.memory.js';
import type { ClosedHour } from '#projections/usage-over-time/hour-moves.js';
import { ReadModelMemory, ReplayEvent } from '#projections/runner/read-model-memory.js';
import { memorySequences, memoryTables, SequenceValue, TableRows } from './table-rows.js';

/** A kind of in-memory state; the twins of one kind share one instance (claims move provider rows). */
export interface MemoryKind<S> {
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

/** The memory each kind of twin (ProjectionTwin.memory) writes to. */
const MEMORY_KINDS: { readonly [K in ProjectionTwin['memory']]: MemoryKind<any> } = {
  core: { create: () => new ReadModelMemory(), tables: memoryTables, sequences: memorySequences },
  'usage-over-time': {
    create: () => new UsageOverTimeMemory(),
    tables: (state: UsageOverTimeMemory) => [...state.tables()],
    drain: (state: UsageOverTimeMemory, all) => state.drain(all),
    drainHours: (state: UsageOverTimeMemory, all) => state.drainHours(all),
    // The projection's own SQL, as if these events had just been appended.
    settle: async (state: UsageOverTimeMemory, client) => {
      for (const { moves, changes, at } of state.late()) await recordChanges(client, moves, changes, at);
      return state.late().length;
    },
  },
};

/** A projection with its twin: what a memory replay runs. */
type Twinned = Projection & { readonly twin: ProjectionTwin };

/**
 * The twins of a set of projections, applied as the inline projector applies them: one
 * transaction's events at a time, projection by projection in the registered order (ProjectionSet).
 */
export class MemoryReplaySet {
  private readonly states = new Map<MemoryKind<unknown>, unknown>();
  private readonly set: ProjectionSet<Twinned>;
  private readonly stateOf = new Map<string, unknown>();
  private drained: TableRows[] | null = null;
  /** Closed hours not made rows of yet, when their rows are made apart. */
  private drainedHours: ClosedHour[] | null = null;

  constructor(projections: readonly Twinned[]) {
    for (const projection of projections) {
      const kind = MEMORY_KINDS[projection.twin.memory];
      if (!this.states.has(kind)) this.states.set(kind, kind.create());
      this.stateOf.set(projection.name, this.states.get(kind));
    }
    this.set = new ProjectionSet(projections);
  }

  /** The events of one transaction of the log. */
  applyTransaction(events: readonly ReplayEvent[]): void {
    for (const [projection, event] of this.set.handled(events)) projection.twin.apply(this.stateOf.get(projection.name), event);
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

/** Memory replay only when every projection has a twin; otherwise the projections' own SQL is replayed, slower but right for any projection. */
export function planMemoryReplay(projections: readonly Projection[]): MemoryPlan {
  const uncovered = projections.filter((projection) => !projection.twin);
  if (uncovered.length > 0) {
    return { kind: 'sql', reason: `no in-memory replay for projection(s) ${uncovered.map((p) => p.name).join(', ')}` };
  }
  return { kind: 'memory', create: () => new MemoryReplaySet(projections as readonly Twinned[]) };
}
