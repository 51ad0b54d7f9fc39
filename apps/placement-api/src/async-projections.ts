import type { EventStore } from '#event-store/index.js';
import type { Database } from '#placement/index.js';
import {
  AsyncProjector, awaitingProjections, ProjectionWaiter, storeReader, watchProjectionLag,
} from '#projections/runner/async/index.js';
import { ALL_PROJECTIONS } from '#projections/index.js';
import type { ProjectionsConfig } from '#platform/config.js';
import type { Operations } from './operations/operations.js';
import { PlacementError } from './platform/placement-error.js';

export interface AsyncProjections {
  /** The store the handlers use: its appends return once the read models have passed them. */
  awaiting<S extends EventStore>(store: S): S;
  close(): Promise<void>;
}

/**
 * PLACEMENT_PROJECTIONS=async in the API: writes reply once the projector has passed them,
 * and (PLACEMENT_PROJECTOR=embedded) this process is one of the projector's candidates.
 * `log` is where the projector reads the log and the lag is counted: PostgreSQL's store or KurrentDB's.
 */
export async function startAsyncProjections(
  config: ProjectionsConfig, url: string, database: Database, operations: Operations,
  store: EventStore,
): Promise<AsyncProjections> {
  const log = operations.logger;
  const lag = watchProjectionLag(
    database.pool, store, (projection, events) => operations.metrics.setProjectionLag(projection, events),
    (error) => log.warn({ err: error }, 'projection lag could not be measured'));
  const waiter = new ProjectionWaiter({ url, pool: database.pool, projections: ALL_PROJECTIONS.map((p) => p.name) });
  await waiter.start();
  const projector = config.projector === 'embedded'
    ? new AsyncProjector({
        url,
        read: storeReader(store),
        projections: ALL_PROJECTIONS,
        onRole: (role) => log.info({ role }, `projector: ${role}`),
        onError: (error) => log.warn({ err: error }, 'projector: a batch or the connection failed; reconnecting, then leading again or standing by'),
      })
    : undefined;
  projector?.start();
  return {
    awaiting: (store) => awaitingProjections(
      store, (position, timeoutMs) => waiter.reached(position, timeoutMs), config.waitMs,
      (detail) => new PlacementError(503, detail),
    ),
    close: async () => {
      lag.stop();
      await projector?.stop();
      await waiter.close();
    },
  };
}
