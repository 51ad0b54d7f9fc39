import { comparePositions, LogPosition, RecordedEvent } from '#event-store/index.js';
import type { Projection } from '../projection.js';

export interface ProjectionWork {
  readonly projection: Projection;
  readonly events: readonly RecordedEvent[];
}

export interface BatchPlan {
  /** Projection by projection, in the registered order, like the inline projector. */
  readonly work: readonly ProjectionWork[];
  /** Where every checkpoint stands once the batch commits; undefined for an empty batch. */
  readonly advanceTo: LogPosition | undefined;
}

/**
 * What one batch does to each projection: the events it handles that lie beyond its own
 * checkpoint. Filtering by the checkpoint read under the batch's row locks is what makes a
 * batch exactly-once even if two projectors ever overlapped, or a checkpoint written inline
 * (which may lag, see moveCheckpoints) is taken over by the projector.
 */
export function planBatch(
  projections: readonly Projection[],
  checkpoints: ReadonlyMap<string, LogPosition>,
  events: readonly RecordedEvent[],
): BatchPlan {
  const work: ProjectionWork[] = [];
  for (const projection of projections) {
    const handles = new Set(projection.handles);
    const from = checkpoints.get(projection.name);
    const mine = events.filter((event) => handles.has(event.type) && (!from || comparePositions(event.position, from) > 0));
    if (mine.length > 0) work.push({ projection, events: mine });
  }
  return { work, advanceTo: events.length > 0 ? events[events.length - 1].position : undefined };
}

/** Where the projector resumes: the checkpoint furthest behind, so no projection misses an event. */
export function resumePosition(checkpoints: ReadonlyMap<string, LogPosition>): LogPosition {
  let lowest: LogPosition | undefined;
  for (const position of checkpoints.values()) {
    if (!lowest || comparePositions(position, lowest) < 0) lowest = position;
  }
  return lowest ?? { commit: 0n, prepare: 0n };
}
