import { Client } from 'pg';

/**
 * Transactions PostgreSQL counted for a database (pg_stat_database): a round-trip figure for
 * upstream too, which does not count its statements. A backend reports its counts when it goes
 * idle at most once a second, and otherwise retries 10 s later (PostgreSQL 15's
 * PGSTAT_IDLE_INTERVAL), so a reading waits that long after the work it follows.
 */
export const STATISTICS_SETTLE_MS = 11_000;

export async function transactionsOf(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()');
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

export const settle = () => new Promise((done) => setTimeout(done, STATISTICS_SETTLE_MS));
