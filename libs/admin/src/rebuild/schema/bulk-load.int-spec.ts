import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { silent } from '../admin-events.js';
import { BulkLoader, bulkLoad } from './bulk-load.js';
import { createMigratedSchema } from './schema-admin.js';
import { readTable } from './table-reader.js';
import { tableShapes } from './schema-admin.js';

describe('bulkLoad', () => {
  let testDb: TestDatabase;
  let pool: Pool;
  beforeAll(async () => {
    testDb = await createTestDatabase('pl_bulk');
    pool = new Pool({ connectionString: testDb.url, max: 4 });
    await createMigratedSchema(pool, testDb.url, 'loaded');
    await createMigratedSchema(pool, testDb.url, 'reference');
    await createMigratedSchema(pool, testDb.url, 'streamed');
  });
  afterAll(async () => {
    await pool.end();
    await testDb.drop();
  });

  const indexes = async (schema: string) => (await pool.query(
    `SELECT tablename, indexname, replace(indexdef, $1 || '.', 'S.') AS def FROM pg_indexes WHERE schemaname = $1 ORDER BY 1, 2`, [schema])).rows
    .map(({ tablename, indexname, def }) => ({ tablename, indexname, def }));

  it('copies awkward values exactly, and builds the deferred keys and indexes again as the migrations made them', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    const rows = [
      ['a', 'tab\there, new\nline, back\\slash, "quotes", ünïcode', 3, null, 'a', at, at],
      ['b', '\\N is not null', 2147483647, 'a', 'a', at, new Date(at.getTime() + 1)],
    ];
    const columns = ['uuid', 'name', 'generation', 'parent_provider_uuid', 'root_provider_uuid', 'created_at', 'updated_at'];
    const holding = { VCPU: 2, 'CUSTOM_X': 1 };
    await bulkLoad(pool, 'loaded', [
      { table: 'rm_resource_providers', columns, rows },
      { table: 'rm_usage_consumers', columns: ['consumer_uuid', 'revision', 'project_id', 'user_id', 'consumer_type', 'holding'], rows: [['c', 7, 'p', 'u', null, holding]] },
    ], [{ name: 'rm_custom_resource_class_ids', next: 10042 }], silent, 1);

    const shapes = new Map((await tableShapes(pool, 'loaded')).map((s) => [s.table, s]));
    expect((await readTable(pool, 'loaded', shapes.get('rm_resource_providers')!, columns)).rows).toEqual(rows);
    expect((await readTable(pool, 'loaded', shapes.get('rm_usage_consumers')!, ['holding'])).rows).toEqual([[holding]]);
    expect(await indexes('loaded')).toEqual(await indexes('reference'));
    expect((await pool.query(`SELECT nextval('loaded.rm_custom_resource_class_ids')::int AS id`)).rows).toEqual([{ id: 10042 }]);
    await expect(pool.query('INSERT INTO loaded.rm_resource_providers SELECT * FROM loaded.rm_resource_providers LIMIT 1')).rejects.toThrow(/duplicate key/);
  });

  it('takes rows in parts while its caller goes on, builds a completed table\'s indexes early, and every index in the end', async () => {
    const loader = await BulkLoader.open(pool, 'streamed');
    const columns = ['project_id', 'user_id', 'consumer_type', 'at', 'deltas'];
    const move = (n: number) => ['p', `u${n}`, 'INSTANCE', new Date(Date.UTC(2026, 0, 1, 0, n)), { VCPU: n }];
    for (let part = 0; part < 5; part++) {
      await loader.write([{ table: 'rm_usage_moves', columns, rows: [0, 1, 2].map((i) => move(part * 3 + i)) }], true);
    }
    loader.complete(['rm_usage_moves']);
    await loader.write([{ table: 'rm_usage_consumers', columns: ['consumer_uuid', 'revision', 'project_id', 'user_id', 'consumer_type', 'holding'], rows: [['c', 1, 'p', 'u', null, {}]] }]);
    const written: string[] = [];
    await loader.finish([], (e) => { if (e.kind === 'written') written.push(`${e.table} ${e.rows}`); });
    expect(written.sort()).toEqual(['rm_usage_consumers 1', 'rm_usage_moves 15']);
    expect((await pool.query('SELECT count(*)::int AS n FROM streamed.rm_usage_moves')).rows).toEqual([{ n: 15 }]);
    expect(await indexes('streamed')).toEqual(await indexes('reference'));
    await expect(pool.query('INSERT INTO streamed.rm_usage_moves SELECT * FROM streamed.rm_usage_moves LIMIT 1')).rejects.toThrow(/duplicate key/);
  });
});
