import type { Pool } from 'pg';
import type { EventStore } from '#event-store/index.js';
import { Database, openDatabase } from '#placement/persistence/database.js';
import { createTestDatabase, TestDatabase } from './database.js';

/**
 * A fresh database with the read models migrated, for projection specs: opened before the
 * file's tests, dropped after them. The pool and the store (its appends run the inline
 * projections) are read lazily because they exist only in beforeAll.
 */
export function useReadModelDatabase(): { readonly pool: Pool; readonly eventStore: EventStore } {
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
  return { get pool() { return database.pool; }, get eventStore() { return database.eventStore; } };
}
