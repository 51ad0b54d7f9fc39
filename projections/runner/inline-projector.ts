import type { InlineProjector, RecordedEvent, SqlClient } from '#event-store/index.js';
import { Projection } from './projection.js';
import { checkpointStatement } from './checkpoints.js';

export interface InlineOptions {
  /**
   * Leave the checkpoints' statement to the store, which sends it with its COMMIT: the same
   * transaction, one round trip fewer per append. Replays that commit by themselves run it here.
   */
  readonly checkpointWithCommit?: boolean;
}

/** Applies every projection that handles an event, inside the append's transaction. */
export function inlineProjector(projections: readonly Projection[], options: InlineOptions = {}): InlineProjector {
  const handled = projections.map((projection) => ({ projection, types: new Set(projection.handles) }));
  const names = projections.map((projection) => projection.name);
  return async (tx: SqlClient, events: readonly RecordedEvent[]) => {
    // Projection by projection, in the registered order: rows many writers share (a project's
    // usage hours) are locked by the last projection, so they are held only until the commit.
    for (const { projection, types } of handled) {
      for (const event of events) if (types.has(event.type)) await projection.apply(tx, event);
    }
    if (events.length === 0) return;
    const checkpoints = checkpointStatement(names, events[events.length - 1].position);
    if (options.checkpointWithCommit) return checkpoints;
    await tx.query(checkpoints);
  };
}
