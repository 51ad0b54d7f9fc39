import type { Pool, PoolClient } from 'pg';

/** Statements this process has sent to PostgreSQL (BEGIN and COMMIT included): round trips, for the benches. */
export const sentStatements = { count: 0 };

const counted = new WeakSet<PoolClient>();

/**
 * Counts every statement sent through the pool's connections. Wrapped on checkout rather than on
 * connect, so connections opened before (by the migrations) are counted too; each one once.
 */
export function countStatements(pool: Pool): void {
  pool.on('acquire', (client) => {
    if (counted.has(client)) return;
    counted.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      sentStatements.count++;
      return query(...args);
    };
  });
}
