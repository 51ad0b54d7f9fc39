import { LOG_LEVELS, LogLevel } from '#platform/config.js';

export interface ProjectorSettings {
  readonly databaseUrl: string;
  readonly logLevel: LogLevel;
  readonly batchSize: number;
  readonly standbyPollMs: number;
  /** PLACEMENT_DB_CONNECTION_RECYCLE_TIME, as the API reads it: seconds a pooled connection lives. */
  readonly connectionRecycleSeconds: number;
  /** Where the log is read from: the API's PLACEMENT_EVENT_STORE and PLACEMENT_KURRENTDB_URL. */
  readonly kurrentDbUrl: string | undefined;
}

/** The projector's environment; a message instead when it cannot start. */
export function projectorSettings(env: NodeJS.ProcessEnv): ProjectorSettings | string {
  const databaseUrl = env.DATABASE_URL;
  if (!databaseUrl || !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return 'DATABASE_URL must be the postgres:// URL the API uses (the projector has no embedded PostgreSQL)';
  }
  const level = (env.LOG_LEVEL || 'info').toLowerCase();
  const logLevel = LOG_LEVELS.find((name) => name === level);
  if (!logLevel) return `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${env.LOG_LEVEL}"`;
  const batchSize = Number(env.PLACEMENT_PROJECTOR_BATCH_SIZE || 500);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100_000) {
    return `PLACEMENT_PROJECTOR_BATCH_SIZE must be an integer from 1 to 100000, not "${env.PLACEMENT_PROJECTOR_BATCH_SIZE}"`;
  }
  const standbyPollMs = Number(env.PLACEMENT_PROJECTOR_STANDBY_POLL_MS || 1000);
  if (!Number.isInteger(standbyPollMs) || standbyPollMs < 50 || standbyPollMs > 60_000) {
    return `PLACEMENT_PROJECTOR_STANDBY_POLL_MS must be an integer from 50 to 60000, not "${env.PLACEMENT_PROJECTOR_STANDBY_POLL_MS}"`;
  }
  const connectionRecycleSeconds = Number(env.PLACEMENT_DB_CONNECTION_RECYCLE_TIME || 3600);
  if (!Number.isInteger(connectionRecycleSeconds) || connectionRecycleSeconds < 1 || connectionRecycleSeconds > 604_800) {
    return `PLACEMENT_DB_CONNECTION_RECYCLE_TIME must be an integer from 1 to 604800, not "${env.PLACEMENT_DB_CONNECTION_RECYCLE_TIME}"`;
  }
  const store = env.PLACEMENT_EVENT_STORE || 'postgres';
  if (store !== 'postgres' && store !== 'kurrentdb') return `PLACEMENT_EVENT_STORE must be postgres or kurrentdb, not "${store}"`;
  if (store === 'kurrentdb' && !env.PLACEMENT_KURRENTDB_URL) return 'PLACEMENT_EVENT_STORE=kurrentdb needs PLACEMENT_KURRENTDB_URL';
  return { databaseUrl, logLevel, batchSize, standbyPollMs, connectionRecycleSeconds, kurrentDbUrl: store === 'kurrentdb' ? env.PLACEMENT_KURRENTDB_URL : undefined };
}
