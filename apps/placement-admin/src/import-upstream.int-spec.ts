import { Client } from 'pg';
import { redactUrl } from '#config-file/redact-url.js';
import { runAdmin } from './cli.js';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { createUpstreamShapedDatabase, Dialect, mysqlAvailability, UpstreamDatabase } from '#test/support/upstream-database.js';

const ROOT = 'aaaaaaaa-0000-0000-0000-000000000001';
const NUMA = 'aaaaaaaa-0000-0000-0000-000000000002';
const SHARED = 'bbbbbbbb-0000-0000-0000-000000000001';
const AGG = 'cccccccc-0000-0000-0000-000000000001';
const VM = 'dddddddd-0000-0000-0000-000000000001';
const OLD_VM = 'dddddddd-0000-0000-0000-000000000002';
const ORPHAN_VM = 'dddddddd-0000-0000-0000-000000000003';
const EMPTY = 'dddddddd-0000-0000-0000-000000000004';

/** A small cloud as upstream's tables hold it, written row by row as upstream's own SQL would leave it. */
async function fillUpstream(db: UpstreamDatabase): Promise<void> {
  const t = (s: string) => `'2025-03-0${s}'`;
  for (const sql of [
    `INSERT INTO resource_classes (id, name, created_at) VALUES (0, 'VCPU', ${t('1 00:00:00')}), (1, 'MEMORY_MB', ${t('1 00:00:00')}),
       (2, 'DISK_GB', ${t('1 00:00:00')}), (10000, 'CUSTOM_GOLD', ${t('2 10:00:00')})`,
    `INSERT INTO traits (id, name, created_at) VALUES (1, 'HW_CPU_X86_AVX2', ${t('1 00:00:00')}),
       (2, 'MISC_SHARES_VIA_AGGREGATE', ${t('1 00:00:00')}), (3, 'CUSTOM_FAST', ${t('2 11:00:00')})`,
    `INSERT INTO projects (id, external_id) VALUES (1, 'proj-a'), (2, '00000000-0000-0000-0000-000000000000')`,
    `INSERT INTO users (id, external_id) VALUES (1, 'user-a'), (2, '00000000-0000-0000-0000-000000000000')`,
    `INSERT INTO consumer_types (id, name) VALUES (1, 'INSTANCE')`,
    `INSERT INTO placement_aggregates (id, uuid) VALUES (7, '${AGG}')`,
    // The child has the lower id: an import must still write its parent first.
    `INSERT INTO resource_providers (id, uuid, name, generation, root_provider_id, parent_provider_id, created_at, updated_at) VALUES
       (1, '${NUMA}', 'cn1-numa0', 5, 2, 2, ${t('3 00:00:00')}, ${t('4 12:30:00')}),
       (2, '${ROOT}', 'cn1', 3, 2, NULL, ${t('3 00:00:00')}, NULL),
       (3, '${SHARED}', 'shared-disk', 9, 3, NULL, ${t('3 00:00:00')}, ${t('5 08:00:00')})`,
    `INSERT INTO inventories (id, resource_provider_id, resource_class_id, total, reserved, min_unit, max_unit, step_size, allocation_ratio, created_at, updated_at) VALUES
       (1, 1, 0, 16, 2, 1, 8, 1, 4.0, ${t('3 01:00:00')}, NULL),
       (2, 2, 1, 65536, 512, 1, 65536, 1, 1.5, ${t('3 01:00:00')}, ${t('4 09:00:00')}),
       (3, 2, 10000, 4, 0, 1, 4, 1, 1.0, ${t('3 01:00:00')}, NULL),
       (4, 3, 2, 2000, 0, 10, 2000, 10, 1.0, ${t('3 02:00:00')}, NULL)`,
    'INSERT INTO resource_provider_traits (trait_id, resource_provider_id) VALUES (1, 1), (3, 2), (2, 3)',
    'INSERT INTO resource_provider_aggregates (resource_provider_id, aggregate_id) VALUES (2, 7), (3, 7)',
    `INSERT INTO consumers (id, uuid, project_id, user_id, generation, consumer_type_id, created_at, updated_at) VALUES
       (1, '${VM}', 1, 1, 2, 1, ${t('4 10:00:00')}, ${t('4 11:00:00')}),
       (2, '${OLD_VM}', 2, 2, 0, NULL, ${t('4 10:00:00')}, NULL),
       (3, '${EMPTY}', 1, 1, 1, 1, ${t('4 10:00:00')}, ${t('6 10:00:00')})`,
    // Written providers-out-of-uuid-order, and one allocation whose consumer row was never made (below 1.8).
    `INSERT INTO allocations (id, resource_provider_id, consumer_id, resource_class_id, used, created_at) VALUES
       (1, 3, '${VM}', 2, 20, ${t('4 11:00:00')}), (2, 1, '${VM}', 0, 4, ${t('4 11:00:00')}), (3, 2, '${VM}', 10000, 1, ${t('4 11:00:00')}),
       (4, 1, '${OLD_VM}', 0, 1, ${t('4 10:00:00')}), (5, 2, '${ORPHAN_VM}', 1, 1024, ${t('4 10:30:00')})`,
  ]) await db.query(sql);
}

async function admin(argv: string[], url: string) {
  const out: string[] = [], err: string[] = [];
  const code = await runAdmin(argv, { DATABASE_URL: url }, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

async function rows<Row = Record<string, unknown>>(url: string, sql: string): Promise<Row[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SET search_path TO read_models, public');
    return (await client.query(sql)).rows as Row[];
  } finally {
    await client.end();
  }
}

const mysql = mysqlAvailability();
if (!mysql.ok) process.stderr.write(`import-upstream.int-spec: the MariaDB half is skipped: ${mysql.reason}\n`);
const dialects: Dialect[] = mysql.ok ? ['postgresql', 'mysql'] : ['postgresql'];

describe.each<Dialect>(dialects)('placement-admin import from upstream on %s', (dialect) => {
  let source: UpstreamDatabase;
  let target: TestDatabase;

  beforeAll(async () => {
    source = await createUpstreamShapedDatabase(dialect);
    await fillUpstream(source);
    target = await createTestDatabase('pl_import');
  });
  afterAll(async () => {
    await source.drop();
    await target.drop();
  });

  it('checks without writing on --dry-run', async () => {
    const run = await admin(['import', '--from', source.url, '--dry-run'], target.url);
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    // 9 entities' streams, plus a name stream per provider and the name backfill's marker, each opened by StreamImported.
    expect(run.out).toContain('import: found 1 custom resource classes, 1 custom traits, 3 resource providers, 4 consumers: 37 events in 13 streams');
    expect(run.out.some((line) => line.includes('password') || line.includes('secret'))).toBe(false);
    expect(await rows(target.url, 'SELECT * FROM es_events')).toEqual([]);
  });

  it('writes the events that reproduce every entity, generations and times included', async () => {
    const run = await admin(['import', '--from', source.url], target.url);
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.out).toContainEqual(expect.stringMatching(/^import: wrote 37 of 37 events \(\d+ events\/s, 0 s left\)$/));
    expect(await rows(target.url, 'SELECT uuid, generation, parent_provider_uuid, root_provider_uuid, updated_at FROM rm_resource_providers ORDER BY uuid'))
      .toEqual([
        { uuid: ROOT, generation: 3, parent_provider_uuid: null, root_provider_uuid: ROOT, updated_at: new Date('2025-03-03T00:00:00Z') },
        { uuid: NUMA, generation: 5, parent_provider_uuid: ROOT, root_provider_uuid: ROOT, updated_at: new Date('2025-03-04T12:30:00Z') },
        { uuid: SHARED, generation: 9, parent_provider_uuid: null, root_provider_uuid: SHARED, updated_at: new Date('2025-03-05T08:00:00Z') },
      ]);
    expect(await rows(target.url, 'SELECT uuid, project_id, consumer_type, generation FROM rm_consumers ORDER BY uuid')).toEqual([
      { uuid: VM, project_id: 'proj-a', consumer_type: 'INSTANCE', generation: 2 },
      { uuid: OLD_VM, project_id: '00000000-0000-0000-0000-000000000000', consumer_type: null, generation: 0 },
      { uuid: ORPHAN_VM, project_id: '00000000-0000-0000-0000-000000000000', consumer_type: null, generation: 0 },
      { uuid: EMPTY, project_id: 'proj-a', consumer_type: 'INSTANCE', generation: 1 },
    ]);
    const first = await rows<{ stream_id: string; type: string; data: Record<string, unknown> }>(target.url,
      'SELECT stream_id, type, data FROM es_events WHERE revision = 0 ORDER BY position');
    expect(first).toHaveLength(13);
    for (const event of first) {
      expect(event).toMatchObject({ type: 'StreamImported', data: { source: redactUrl(source.url), source_revision: '422ece571366', v: 1 } });
    }
  });

  it('verifies that every entity of the source is served, and names a difference', async () => {
    expect(await admin(['import', '--verify', '--from', source.url], target.url)).toMatchObject({
      code: 0, out: expect.arrayContaining(['import: verify: every entity of the source matches what this service serves']),
    });
    await source.query(`UPDATE resource_providers SET generation = 6 WHERE uuid = '${NUMA}'`);
    const drift = await admin(['import', '--verify', '--from', source.url], target.url);
    await source.query(`UPDATE resource_providers SET generation = 5 WHERE uuid = '${NUMA}'`);
    expect(drift.code).toBe(1);
    expect(drift.out).toContain(`import: DIFFERENT: resource provider ${NUMA}: generation 6 != 5`);
  });

  it('refuses a log that is not empty, writing nothing', async () => {
    const [{ n }] = await rows<{ n: string }>(target.url, 'SELECT count(*) AS n FROM es_events');
    const again = await admin(['import', '--from', source.url], target.url);
    expect(again.code).toBe(2);
    expect(again.err[0]).toMatch(/^import: refused: the target's log is not empty/);
    expect(await rows(target.url, 'SELECT count(*) AS n FROM es_events')).toEqual([{ n }]);
  });

  it('exports back into an empty upstream database that then holds the same cloud', async () => {
    const back = await createUpstreamShapedDatabase(dialect);
    try {
      // upstream syncs its standard names on first start; the export keeps their ids.
      await back.query("INSERT INTO resource_classes (id, name) VALUES (0, 'VCPU'), (1, 'MEMORY_MB'), (2, 'DISK_GB')");
      const run = await admin(['export', '--to', back.url], target.url);
      expect(run.err).toEqual([]);
      expect(run.code).toBe(0);
      expect(await back.query("SELECT id FROM resource_classes WHERE name = 'CUSTOM_GOLD'")).toEqual([{ id: 10000 }]);
      expect(await admin(['import', '--verify', '--from', back.url], target.url)).toMatchObject({ code: 0 });
      const refused = await admin(['export', '--to', back.url], target.url);
      expect(refused.code).toBe(2);
      expect(refused.err[0]).toBe('export: refused: the target is not empty: resource_providers holds 3 rows; nothing was written');
    } finally {
      await back.drop();
    }
  });
});

describe('placement-admin import refuses what it cannot read exactly', () => {
  let target: TestDatabase;
  beforeAll(async () => { target = await createTestDatabase('pl_import'); });
  afterAll(async () => { await target.drop(); });

  it('names an unknown schema revision', async () => {
    const source = await createUpstreamShapedDatabase('postgresql', 'ffffffffffff');
    try {
      const run = await admin(['import', '--from', source.url], target.url);
      expect(run.code).toBe(2);
      expect(run.err[0]).toMatch(/^import: refused: the source's schema revision ffffffffffff is unknown to this build/);
    } finally {
      await source.drop();
    }
  });

  it('reads a schema from before consumer types', async () => {
    const source = await createUpstreamShapedDatabase('postgresql', 'b5c396305c25');
    try {
      await source.query("INSERT INTO projects (id, external_id) VALUES (1, 'p')");
      await source.query("INSERT INTO users (id, external_id) VALUES (1, 'u')");
      await source.query(`INSERT INTO consumers (id, uuid, project_id, user_id, generation) VALUES (1, '${VM}', 1, 1, 4)`);
      const run = await admin(['import', '--from', source.url, '--dry-run'], target.url);
      expect(run.code).toBe(0);
      expect(run.out).toContain('import: found 0 custom resource classes, 0 custom traits, 0 resource providers, 1 consumers: 2 events in 1 streams');
    } finally {
      await source.drop();
    }
  });
});
