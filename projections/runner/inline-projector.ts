import type { InlineProjector, RecordedEvent, SqlClient } from '../../libs/event-store/src/index.js';
import { Projection } from './projection.js';
import { advanceCheckpoints } from './checkpoints.js';

/** Applies every projection that handles an event, inside the append's transaction. */
export function inlineProjector(projections: readonly Projection[]): InlineProjector {
  const byType = new Map<string, Projection[]>();
  for (const projection of projections) {
    for (const type of projection.handles) byType.set(type, [...(byType.get(type) ?? []), projection]);
  }
  const names = projections.map((projection) => projection.name);
  return async (tx: SqlClient, events: readonly RecordedEvent[]) => {
    for (const event of events) {
      for (const projection of byType.get(event.type) ?? []) await projection.apply(tx, event);
    }
    if (events.length > 0) await advanceCheckpoints(tx, names, events[events.length - 1].position);
  };
}
