import type { AppendedEvent, SqlClient } from '#event-store/index.js';
import type { ReplayEvent } from './read-model-memory.js';

/**
 * A projection's in-memory twin, for a rebuild that replays the whole log and writes the rows
 * itself: the same event types (the projection's), applied to the memory its kind names (twins of
 * one kind share it: a claim moves provider rows). The kinds are rebuild's (memory-kinds.ts).
 */
export interface ProjectionTwin {
  readonly memory: 'core' | 'usage-over-time';
  apply(state: any, event: ReplayEvent): void;
}

/** A read model's handlers: `evolve` over rows. Must be idempotent (rebuild replays). */
export interface Projection {
  readonly name: string;
  /** The one list of what it handles: the inline, asynchronous and in-memory runs all read it. */
  readonly handles: readonly string[];
  apply(tx: SqlClient, event: AppendedEvent<any>): Promise<void>;
  readonly twin?: ProjectionTwin;
}
