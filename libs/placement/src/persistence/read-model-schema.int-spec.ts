import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { EVENT_STORE_SCHEMA } from '#event-store/index.js';
import { InitialReadModels1700000000000 } from '#projections/migrations/1700000000000-initial-read-models.js';
import { Database, openDatabase } from './database.js';

const where = async (client: Client, table: string) =>
  (await client.query('SELECT schemaname FROM pg_tables WHERE tablename = $1', [table])).rows.map((r) => r.schemaname);

describe('the read models\' own schema', () => {
  let testDb: TestDatabase;
  let client: Client;
  let db: Database | undefined;
  beforeEach(async () => {
    testDb = await createTestDatabase('pl_schema');
    client = new Client({ connectionString: testDb.url });
    await client.connect();
  });
  afterEach(async () => {
    await db?.close();
    db = undefined;
    await client.end();
    await testDb.drop();
  });

  it('keeps the log in public and the read models in read_models; queries name neither', async () => {
    db = await openDatabase(testDb.url, 2);
    expect(await where(client, 'es_events')).toEqual(['public']);
    expect(await where(client, 'rm_resource_providers')).toEqual(['read_models']);
    expect(await where(client, 'rm_migrations')).toEqual(['read_models']);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM rm_traits WHERE NOT custom')).rows[0].n).toBeGreaterThan(0);
    await db.eventStore.append([{ stream: 'trait-CUSTOM_A', expectedRevision: -1, events: [{ type: 'TraitCreated', data: { name: 'CUSTOM_A', v: 1 } }] }]);
    expect((await db.pool.query(`SELECT custom FROM rm_traits WHERE name = 'CUSTOM_A'`)).rows).toEqual([{ custom: true }]);
  });

  it('moves the read models of a database written before they had a schema, rows and ids intact', async () => {
    // What the earlier code left: everything in public, the first migration recorded.
    await client.query(EVENT_STORE_SCHEMA);
    await new InitialReadModels1700000000000().up({ query: (sql: string) => client.query(sql) } as never);
    await client.query(`CREATE TABLE rm_migrations (id serial PRIMARY KEY, timestamp bigint NOT NULL, name varchar NOT NULL);
      INSERT INTO rm_migrations (timestamp, name) VALUES (1700000000000, 'InitialReadModels1700000000000');
      INSERT INTO rm_resource_classes (name, id, custom) VALUES ('CUSTOM_OLD', nextval('rm_custom_resource_class_ids'), true);`);
    db = await openDatabase(testDb.url, 2);
    expect(await where(client, 'rm_resource_classes')).toEqual(['read_models']);
    expect(await where(client, 'rm_consumers')).toEqual(['read_models']);
    expect(await where(client, 'es_streams')).toEqual(['public']);
    expect((await client.query(`SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND relname LIKE 'rm\\_%'`)).rows).toEqual([]);
    expect((await db.pool.query(`SELECT id FROM rm_resource_classes WHERE name = 'CUSTOM_OLD'`)).rows).toEqual([{ id: 10000 }]);
    expect((await db.pool.query(`SELECT nextval('rm_custom_resource_class_ids')::int AS id`)).rows).toEqual([{ id: 10001 }]);
    expect((await db.pool.query('SELECT name FROM rm_migrations ORDER BY id')).rows.map((r) => r.name)).toContain('AllocationsReadModels1700000000001');
  });

  it('agrees with itself when servers start together', async () => {
    const opened = await Promise.all([openDatabase(testDb.url, 1), openDatabase(testDb.url, 1)]);
    await opened[1].close();
    db = opened[0];
    expect(await where(client, 'rm_inventories')).toEqual(['read_models']);
  });
});
