import { comparePositions, LogPosition } from '#event-store/index.js';

/** Where the projector resumes: the checkpoint furthest behind, so no projection misses an event. */
export function resumePosition(checkpoints: ReadonlyMap<string, LogPosition>): LogPosition {
  let lowest: LogPosition | undefined;
  for (const position of checkpoints.values()) {
    if (!lowest || comparePositions(position, lowest) < 0) lowest = position;
  }
  return lowest ?? { commit: 0n, prepare: 0n };
}
