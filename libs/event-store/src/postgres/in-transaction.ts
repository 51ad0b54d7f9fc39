import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` on one pooled connection inside `begin` (BEGIN, or one with its isolation level)
 * and COMMIT, rolling back when it throws.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
