import type { ConnectionOptions } from 'mysql2';
import type { ClientConfig } from 'pg';
import { SourceUrl } from './source-url.js';

/** A connection to upstream's database that cannot be made in this time fails rather than hangs. */
const CONNECT_TIMEOUT_MS = 10_000;

/** mysql2's options for an upstream URL: a socket or host, utf8mb4 as upstream's tables are. */
export function mysqlOptions(url: SourceUrl): ConnectionOptions {
  return {
    host: url.socket ? undefined : url.host, port: url.port, socketPath: url.socket, user: url.user, password: url.password,
    database: url.database, charset: 'utf8mb4', connectTimeout: CONNECT_TIMEOUT_MS,
  };
}

/** node-postgres' options for an upstream URL (a socket directory goes in `host`, as libpq's). */
export function postgresOptions(url: SourceUrl): ClientConfig {
  return {
    host: url.socket ?? url.host, port: url.port, user: url.user, password: url.password, database: url.database,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  };
}
