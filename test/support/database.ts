import { Client } from 'pg';
import { randomUUID } from 'node:crypto';

/** Where tests create their throw-away databases: the real PostgreSQL CI starts. */
export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(prefix = 'pl_test'): Promise<TestDatabase> {
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: ADMIN_URL });
      await client.connect();
      // pg's pool.end() resolves before its sockets are closed; forcing the drop while they close
      // makes PostgreSQL kill them, and the dying client raises an unhandled 'error' in the test.
      for (let i = 0; i < 50; i++) {
        const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
