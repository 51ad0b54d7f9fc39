import { Client } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTestDatabase, TestDatabase } from './database.js';

/**
 * A fresh database for one migration's spec, with the migrations it builds on applied: opened
 * before the file's tests, dropped after them. `runner` is the slice of TypeORM's QueryRunner
 * migrations use; the client is read lazily because it exists only in beforeAll.
 */
export function useMigrationDatabase(prefix: string, before: readonly (new () => MigrationInterface)[]): {
  readonly client: Client;
  runner(): QueryRunner;
} {
  let testDb: TestDatabase;
  let client: Client;
  const runner = () => ({ query: (sql: string) => client.query(sql) }) as unknown as QueryRunner;
  beforeAll(async () => {
    testDb = await createTestDatabase(prefix);
    client = new Client({ connectionString: testDb.url });
    await client.connect();
    for (const Migration of before) await new Migration().up(runner());
  });
  afterAll(async () => {
    await client.end();
    await testDb.drop();
  });
  return { get client() { return client; }, runner };
}
