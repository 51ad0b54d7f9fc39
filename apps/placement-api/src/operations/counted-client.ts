import { Client } from 'pg';

/** Statements this process has sent to PostgreSQL (BEGIN and COMMIT included): round trips, for /metrics and the benches. */
export const sentStatements = { count: 0 };

/** The API's PostgreSQL connections (the pool's `Client` option): pg's own client, counting what it sends. */
export class CountedClient extends Client {}

const send = Client.prototype.query;
CountedClient.prototype.query = function query(this: Client, ...args: unknown[]) {
  sentStatements.count++;
  return (send as (...sent: unknown[]) => unknown).apply(this, args);
} as Client['query'];
