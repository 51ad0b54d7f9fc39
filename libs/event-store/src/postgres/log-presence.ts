import type { Pool, PoolClient } from 'pg';

/** Whether the log's tables exist in this database (no server has started on it otherwise): an upgrade check's question. */
export async function hasEventLog(client: PoolClient | Pool): Promise<boolean> {
  const { rows } = await client.query(`SELECT to_regclass('public.es_events') IS NOT NULL AS present`);
  return rows[0].present;
}
