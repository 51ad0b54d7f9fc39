import type { AppendedEvent, InlineProjector, LogPosition, SqlClient, THIS_TRANSACTION } from '#event-store/index.js';
import { Projection } from './projection.js';
import { ProjectionSet } from './projection-set.js';
import { moveCheckpoints } from './checkpoints.js';

/** Applies every projection that handles an event, inside the append's transaction, and moves their checkpoints to it. */
export function inlineProjector(projections: readonly Projection[]): InlineProjector {
  const set = new ProjectionSet(projections);
  return async (tx: SqlClient, events: readonly AppendedEvent[], through: LogPosition | typeof THIS_TRANSACTION) => {
    for (const [projection, event] of set.handled(events)) await projection.apply(tx, event);
    if (events.length > 0) await moveCheckpoints(tx, set.names, through);
  };
}
