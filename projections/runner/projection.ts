import type { RecordedEvent, SqlClient } from '#event-store/index.js';

/** A read model's handlers: `evolve` over rows. Must be idempotent (rebuild replays). */
export interface Projection {
  readonly name: string;
  readonly handles: readonly string[];
  apply(tx: SqlClient, event: RecordedEvent<any>): Promise<void>;
}
