import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { LogPoint, StreamLookup } from '../port.js';
import { INDEXED_LOOKUPS } from '../indexed-lookups.js';
import { lookupIndexName } from './event-store-schema.js';
import { PostgresEventStore } from './postgres-event-store.js';
import { streamLookupStatement } from './stream-lookup.js';

interface PlanNode { 'Node Type': string; 'Index Name'?: string; Plans?: PlanNode[] }
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/**
 * A lookup's cost follows its matches, not the log's length: on a log of 200,000 events, each
 * lookup the ledger makes is planned as a scan of its own index, both as sent the first times
 * (custom plans) and once the server settles on a generic plan for the named statement. A lookup
 * that came to read es_events whole (a Seq Scan, or another index) fails here.
 */
describe('PostgreSQL: stream lookups read their index', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase('pl_es_lookup');
    pool = new Pool({ connectionString: db.url, max: 2 });
    store = new PostgresEventStore(pool);
    await store.ensureSchema();
    // Mostly events no lookup is about, as a real log is (allocations, inventories); one in ten
    // of each looked-up type, spread over many values.
    await pool.query(`
      INSERT INTO es_events (stream_id, revision, type, data, metadata)
      SELECT 'provider-' || (i % 20000), i / 20000,
        CASE i % 10 WHEN 1 THEN 'ResourceProviderCreated' WHEN 2 THEN 'AggregatesSet' WHEN 3 THEN 'ConsumerAllocationsReplaced'
          WHEN 4 THEN 'ResourceProviderUpdated' ELSE 'InventoryChanged' END,
        jsonb_build_object('parent_provider_uuid', 'parent-' || (i % 997), 'project_id', 'project-' || (i % 991),
          'aggregates', jsonb_build_array('agg-' || (i % 983), 'agg-' || (i % 983 + 1))),
        '{}'
      FROM generate_series(1, 200000) AS i`);
    await pool.query('ANALYZE es_events');
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  const indexesUsed = async (lookup: StreamLookup, generic: boolean): Promise<string[]> => {
    const params: unknown[] = [];
    const text = streamLookupStatement(lookup, params);
    const client = await pool.connect();
    try {
      await client.query(`SET plan_cache_mode = ${generic ? 'force_generic_plan' : 'force_custom_plan'}`);
      await client.query(`PREPARE lookup AS ${text}`);
      const values = params.map((value) => `'${String(value).replace(/'/g, "''")}'`).join(', ');
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) EXECUTE lookup(${values})`);
      const scans = nodes(rows[0]['QUERY PLAN'][0].Plan).filter((node) => /Scan/.test(node['Node Type']));
      return scans.map((node) => `${node['Node Type']} ${node['Index Name'] ?? ''}`.trim());
    } finally {
      await client.query('DEALLOCATE ALL; RESET plan_cache_mode');
      client.release();
    }
  };

  const point: LogPoint = { position: { commit: 1n << 40n, prepare: 150000n } };
  const values: Record<string, string> = { parent_provider_uuid: 'parent-7', aggregates: 'agg-7', project_id: 'project-7' };

  for (const { index, types, field } of INDEXED_LOOKUPS.map((lookup) => ({ ...lookup, index: lookupIndexName(lookup.name) }))) {
    it(`finds ${field} by ${index}, with and without a bound, custom and generic plans`, async () => {
      for (const until of [undefined, point, { time: 1n << 60n }]) {
        for (const generic of [false, true]) {
          const lookup = { types, field, value: values[field], ...(until ? { until } : {}) };
          expect(await indexesUsed(lookup, generic)).toEqual(['Bitmap Heap Scan', `Bitmap Index Scan ${index}`]);
        }
      }
      // One of the types alone is still served by the index.
      expect(await indexesUsed({ types: [types[0]], field, value: values[field] }, false)).toContain(`Bitmap Index Scan ${index}`);
    });
  }

  it('answers from the index what the log holds', async () => {
    const { rows } = await pool.query<{ stream_id: string }>(
      `SELECT stream_id FROM es_events WHERE type = 'AggregatesSet' AND data->'aggregates' ? 'agg-7' GROUP BY stream_id ORDER BY min(position)`);
    const found = await store.streamsWith({ types: ['AggregatesSet'], field: 'aggregates', value: 'agg-7' });
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(rows.map((row) => row.stream_id));
  });
});
