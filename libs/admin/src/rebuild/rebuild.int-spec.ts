import type { Pool } from 'pg';
import { syntheticLog, SyntheticEvent } from '#test/bench/rebuild-log.js';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { Database, openDatabase } from '#placement/persistence/database.js';
import { AdminEvent } from './admin-events.js';
import { comparable } from './comparison-rules.js';
import { rebuildReadModels } from './rebuild.js';
import { hasDrift } from './row-diff.js';
import { tableShapes } from './schema/schema-admin.js';
import { readTable } from './schema/table-reader.js';
import { readStatus } from './status.js';
import { verifyReadModels } from './verify.js';

jest.setTimeout(120_000);

/** Every read-model table, sorted, in a form two schemas can be compared in. */
async function snapshotTables(pool: Pool) {
  const shapes = await tableShapes(pool, 'read_models');
  const tables: Record<string, string[]> = {};
  for (const shape of shapes) {
    const table = comparable(await readTable(pool, 'read_models', shape));
    tables[shape.table] = table.rows.map((row) => JSON.stringify(row)).sort();
  }
  return tables;
}

describe('rebuild and verify over a synthetic cloud', () => {
  let testDb: TestDatabase;
  let db: Database;
  let log: Generator<SyntheticEvent[]>;
  const append = (events: SyntheticEvent[]) =>
    db.eventStore.append([...new Set(events.map((e) => e.stream))].map((stream) => ({
      stream, expectedRevision: 'any' as const,
      events: events.filter((e) => e.stream === stream).map(({ type, data }) => ({ type, data })),
    })));
  const appendMany = async (count: number) => {
    let n = 0;
    while (n < count) {
      const next = log.next();
      if (next.done) return;
      await append(next.value);
      n += next.value.length;
    }
  };

  beforeAll(async () => {
    testDb = await createTestDatabase('pl_rebuild');
    db = await openDatabase(testDb.url, 8);
    log = syntheticLog({ events: 1_000_000, providers: 40, liveConsumers: 150, seed: 7 });
    await appendMany(2500);
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });

  it('finds the inline projections\' rows exactly where the in-memory and the SQL replays put them', async () => {
    for (const sql of [false, true]) {
      const result = await verifyReadModels(db.pool, testDb.url, db.eventStore, { sql });
      expect(result.mode).toBe(sql ? 'sql' : 'memory');
      expect(result.events).toBeGreaterThanOrEqual(2500);
      expect(result.tables.filter(hasDrift)).toEqual([]);
      expect(result.unchecked).toEqual([]);
    }
  });

  it('rebuilds into identical tables, both ways, and sets the checkpoints to the head', async () => {
    const before = await snapshotTables(db.pool);
    expect(before.rm_allocations.length).toBeGreaterThan(50);
    expect(before.rm_usage_hours?.length ?? 1).toBeGreaterThan(0);
    for (const sql of [false, true]) {
      const result = await rebuildReadModels(db.pool, testDb.url, db.eventStore, { sql });
      expect(result.mode).toBe(sql ? 'sql' : 'memory');
      expect(await snapshotTables(db.pool)).toEqual(before);
    }
    const status = await readStatus(db.pool, db.eventStore);
    expect(status.projections.map((p) => p.lag)).toEqual(status.projections.map(() => 0));
    expect(status.projections[0].rebuiltEvents).toBe(status.log.events);
    expect(status.projections[0].checkpoint?.position).toBe(status.log.head?.position);
    expect(status.leftovers).toEqual([]);
  });

  it('reports each corrupted row, and a rebuild puts it right', async () => {
    const { rows: [victim] } = await db.pool.query('SELECT consumer_uuid, provider_uuid, resource_class FROM rm_allocations LIMIT 1');
    await db.pool.query('DELETE FROM rm_allocations WHERE consumer_uuid = $1 AND provider_uuid = $2 AND resource_class = $3',
      [victim.consumer_uuid, victim.provider_uuid, victim.resource_class]);
    const { rows: [changed] } = await db.pool.query(`UPDATE rm_inventories SET total = 999999 WHERE ctid = (SELECT min(ctid) FROM rm_inventories)
      RETURNING provider_uuid, resource_class`);
    await db.pool.query(`INSERT INTO rm_provider_traits (provider_uuid, trait) VALUES ('nobody', 'CUSTOM_TRAIT_1')`);

    const drift = await verifyReadModels(db.pool, testDb.url, db.eventStore);
    expect(drift.drift).toBe(true);
    const byTable = Object.fromEntries(drift.tables.filter(hasDrift).map((t) => [t.table, t]));
    expect(Object.keys(byTable).sort()).toEqual(['rm_allocations', 'rm_inventories', 'rm_provider_traits']);
    expect(byTable.rm_allocations.missing).toEqual([expect.objectContaining(victim)]);
    expect(byTable.rm_inventories.different).toEqual([{
      key: changed, columns: [{ column: 'total', expected: expect.any(Number), actual: 999999 }],
    }]);
    expect(byTable.rm_provider_traits.extra).toEqual([{ provider_uuid: 'nobody', trait: 'CUSTOM_TRAIT_1' }]);

    await rebuildReadModels(db.pool, testDb.url, db.eventStore);
    expect((await verifyReadModels(db.pool, testDb.url, db.eventStore)).drift).toBe(false);
  });

  it('applies what is appended during the rebuild, before and during the swap', async () => {
    const events: AdminEvent[] = [];
    let writing = true;
    const writer = (async () => { while (writing) await appendMany(20); })();
    const result = await rebuildReadModels(db.pool, testDb.url, db.eventStore, {
      report: async (event) => {
        events.push(event);
        // Writes that certainly land after the snapshot, whatever the timing of the loop above.
        if (event.kind === 'replay' && event.final) await appendMany(200);
      },
    });
    writing = false;
    await writer;
    expect(result.caughtUp).toBeGreaterThanOrEqual(200);
    expect(events.some((e) => e.kind === 'caught-up' && e.locked)).toBe(true);
    expect((await verifyReadModels(db.pool, testDb.url, db.eventStore)).tables.filter(hasDrift)).toEqual([]);
  });

  it('refuses to swap away a table the migrations do not create, and leaves the read models as they were', async () => {
    await db.pool.query('CREATE TABLE read_models.rm_someone_elses (id int)');
    try {
      await expect(rebuildReadModels(db.pool, testDb.url, db.eventStore)).rejects.toThrow(/rm_someone_elses/);
      expect((await db.pool.query(`SELECT to_regclass('read_models_next.rm_inventories') AS t`)).rows[0].t).toBeNull();
      expect((await verifyReadModels(db.pool, testDb.url, db.eventStore)).drift).toBe(false);
    } finally {
      await db.pool.query('DROP TABLE read_models.rm_someone_elses');
    }
  });

  it('lets one rebuild run at a time', async () => {
    const first = rebuildReadModels(db.pool, testDb.url, db.eventStore);
    const second = rebuildReadModels(db.pool, testDb.url, db.eventStore);
    const outcomes = await Promise.allSettled([first, second]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(String((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason)).toMatch(/another rebuild/);
  });

  // Last: it rewrites the log's times, which the live read models then no longer match.
  it('writes the hours the log leaves behind while it replays, and folds a change too late for them in with SQL', async () => {
    // A transaction every two minutes from a fixed day, so the log spans many hours...
    await db.pool.query(
      `UPDATE es_events e SET recorded_at = timestamptz '2026-01-01' + t.n * interval '2 minutes'
         FROM (SELECT transaction_id, dense_rank() OVER (ORDER BY transaction_id) AS n FROM es_events) t
        WHERE e.transaction_id = t.transaction_id`);
    // ...and one first claim (it certainly moves usage) late in the log, dated five hours before the ones around it.
    const { rowCount } = await db.pool.query(
      `UPDATE es_events SET recorded_at = recorded_at - interval '5 hours' WHERE transaction_id = (
         SELECT transaction_id FROM es_events WHERE type = 'ConsumerAllocationsReplaced' AND revision = 0
          ORDER BY transaction_id DESC OFFSET 20 LIMIT 1)`);
    expect(rowCount).toBeGreaterThan(0);
    await rebuildReadModels(db.pool, testDb.url, db.eventStore, { sql: true });
    const bySql = await snapshotTables(db.pool);
    expect(new Set(bySql.rm_usage_hours.map((row) => JSON.parse(row)[4])).size).toBeGreaterThan(10);
    const steps: string[] = [];
    const result = await rebuildReadModels(db.pool, testDb.url, db.eventStore, { report: (e) => { if (e.kind === 'step') steps.push(e.message); } });
    expect(result.mode).toBe('memory');
    expect(steps).toContainEqual(expect.stringMatching(/^1 event\(s\) came after their hour was written/));
    expect(await snapshotTables(db.pool)).toEqual(bySql);
  });
});
