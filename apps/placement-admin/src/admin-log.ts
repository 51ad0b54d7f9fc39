import type { Pool } from 'pg';
import { EventStore, PostgresEventStore } from '#event-store/index.js';
import { eventStore, projections } from '#platform/config.js';

/** The log the commands read, and how the read models are written from it, as the server is configured. */
export interface AdminLog {
  /** Where the log is kept: this PostgreSQL database's own tables, or KurrentDB. */
  readonly kind: 'postgres' | 'kurrentdb';
  readonly store: EventStore;
  readonly mode: 'inline' | 'async';
  close(): Promise<void>;
}

/**
 * The server's own settings (PLACEMENT_EVENT_STORE, PLACEMENT_KURRENTDB_URL,
 * PLACEMENT_PROJECTIONS) name the log: the PostgreSQL database's own tables, or KurrentDB.
 * `external` stands in for KurrentDB where a test holds its log in memory. A setting the server
 * would refuse throws ConfigError.
 */
export async function openAdminLog(env: NodeJS.ProcessEnv, pool: Pool, external?: EventStore): Promise<AdminLog> {
  const config = eventStore(env);
  const mode = projections(env, config.kind).mode;
  if (config.kind === 'postgres') return { kind: config.kind, store: new PostgresEventStore(pool), mode, close: async () => undefined };
  if (external) return { kind: config.kind, store: external, mode, close: async () => undefined };
  // Loaded only here: the KurrentDB client and its native module take half a second to load.
  const { KurrentEventStore } = await import('#event-store/kurrent/kurrent-event-store.js');
  const store = KurrentEventStore.connect(config.url);
  return { kind: config.kind, store, mode, close: () => store.close() };
}
