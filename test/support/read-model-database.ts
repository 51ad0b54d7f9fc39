import type { Pool } from 'pg';
import { Database, openDatabase } from '#placement/persistence/database.js';
import { createTestDatabase, TestDatabase } from './database.js';

/**
 * A fresh database with the read models migrated, for projection specs: opened before the
 * file's tests, dropped after them. The pool is read lazily because it exists only in beforeAll.
 */
export function useReadModelDatabase(): { readonly pool: Pool } {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase('pl_proj');
    database = await openDatabase(testDb.url, 2);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });
  return { get pool() { return database.pool; } };
}
