import type { InlineProjector, RecordedEvent, SqlClient } from '#event-store/index.js';
import { Projection } from './projection.js';
import { moveCheckpoints } from './checkpoints.js';

/** Applies every projection that handles an event, inside the append's transaction, and moves their checkpoints to it. */
export function inlineProjector(projections: readonly Projection[]): InlineProjector {
  const handled = projections.map((projection) => ({ projection, types: new Set(projection.handles) }));
  const names = projections.map((projection) => projection.name);
  return async (tx: SqlClient, events: readonly RecordedEvent[]) => {
    // Projection by projection, in the registered order: rows many writers share (a project's
    // usage hours) are locked by the last projection, so they are held only until the commit.
    for (const { projection, types } of handled) {
      for (const event of events) if (types.has(event.type)) await projection.apply(tx, event);
    }
    if (events.length > 0) await moveCheckpoints(tx, names, events[events.length - 1].position);
  };
}
