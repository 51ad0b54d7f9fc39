import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` inside `begin` (BEGIN, or one with its isolation level) and COMMIT, rolling back
 * when it throws: on a pooled connection of its own, or on `on` itself where it is a connection
 * the caller holds across several transactions (and keeps).
 */
export async function inTransaction<T>(on: Pool | PoolClient, work: (client: PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const held = 'release' in on;
  const client = held ? on : await on.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    if (!held) client.release();
  }
}
