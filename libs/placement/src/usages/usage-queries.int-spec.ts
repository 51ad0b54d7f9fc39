import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { Database, openDatabase } from '../persistence/database.js';
import { GetProviderUsages, GetProviderUsagesHandler } from './get-provider-usages.query.js';
import { GetTotalUsages, GetTotalUsagesHandler } from './get-total-usages.query.js';
import { consumerTypeScope, usagesByClass, usagesByConsumerType } from './usage-grouping.js';

/**
 * The usage queries over the allocations read models, with rows as the allocation projection
 * writes them: the consumer-types-1.38 arrangement (3 untyped consumers, one INSTANCE, one PONY).
 */
describe('usage queries over rm_allocations and rm_consumers', () => {
  let db: TestDatabase;
  let database: Database;
  const RP = '5f0c1d2e-0000-4000-8000-000000000001';
  const EMPTY_RP = '5f0c1d2e-0000-4000-8000-000000000002';

  beforeAll(async () => {
    db = await createTestDatabase('pl_usage');
    database = await openDatabase(db.url, 2);
    const q = (sql: string, params: unknown[] = []) => database.pool.query(sql, params);
    for (const uuid of [RP, EMPTY_RP]) {
      await q(`INSERT INTO rm_resource_providers (uuid, name, generation, root_provider_uuid, created_at, updated_at)
               VALUES ($1, $2, 7, $1, now(), now())`, [uuid, `rp-${uuid}`]);
    }
    for (const rc of ['DISK_GB', 'VCPU', 'MEMORY_MB']) {
      await q('INSERT INTO rm_inventories VALUES ($1, $2, 4096, 0, 1, 4096, 1, 1.0, now(), now())', [RP, rc]);
    }
    const consumers: [string, string, string | null, Record<string, number>][] = [
      ['c0', 'alice', null, { DISK_GB: 1000 }],
      ['c1', 'alice', null, { VCPU: 6 }],
      ['c2', 'bob', null, { DISK_GB: 20, VCPU: 1 }],
      ['c3', 'alice', 'INSTANCE', { DISK_GB: 10 }],
      ['c4', 'bob', 'PONY', { DISK_GB: 10 }],
      ['other', 'alice', 'INSTANCE', { DISK_GB: 500 }],
    ];
    for (const [uuid, user, type, held] of consumers) {
      const project = uuid === 'other' ? 'elsewhere' : 'proj';
      await q('INSERT INTO rm_consumers VALUES ($1, $2, $3, $4, 1, now(), now())', [uuid, project, user, type]);
      for (const [rc, used] of Object.entries(held)) {
        await q('INSERT INTO rm_allocations VALUES ($1, $2, $3, $4, now(), now())', [uuid, RP, rc, used]);
      }
    }
  });
  afterAll(async () => {
    await database.close();
    await db.drop();
  });

  const provider = (uuid: string) => new GetProviderUsagesHandler(database.pool).execute(new GetProviderUsages(uuid));
  const total = (type?: string, user?: string) =>
    new GetTotalUsagesHandler(database.pool).execute(new GetTotalUsages('proj', user, consumerTypeScope(type)));

  it('sums a provider\'s allocations per class with inventory, 0 for the unused ones', async () => {
    expect(await provider(RP)).toEqual({ generation: 7, usages: { DISK_GB: 1540, VCPU: 7, MEMORY_MB: 0 } });
    expect(await provider(EMPTY_RP)).toEqual({ generation: 7, usages: {} });
    await expect(provider('nope')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('sums a project\'s usages per class, whatever the type (before 1.38)', async () => {
    expect(usagesByClass(await total())).toEqual({ DISK_GB: 1040, VCPU: 7 });
  });

  it('groups a project\'s usages by consumer type, counting distinct consumers', async () => {
    expect(usagesByConsumerType(await total(), false)).toEqual({
      unknown: { consumer_count: 3, DISK_GB: 1020, VCPU: 7 },
      INSTANCE: { consumer_count: 1, DISK_GB: 10 },
      PONY: { consumer_count: 1, DISK_GB: 10 },
    });
    expect(usagesByConsumerType(await total('all'), true)).toEqual({ all: { consumer_count: 5, DISK_GB: 1040, VCPU: 7 } });
    expect(usagesByConsumerType(await total('unknown'), false)).toEqual({ unknown: { consumer_count: 3, DISK_GB: 1020, VCPU: 7 } });
    expect(usagesByConsumerType(await total('PONY'), false)).toEqual({ PONY: { consumer_count: 1, DISK_GB: 10 } });
    expect(await total('COW')).toEqual([]);
  });

  it('narrows to one user', async () => {
    expect(usagesByConsumerType(await total(undefined, 'alice'), false)).toEqual({
      unknown: { consumer_count: 2, DISK_GB: 1000, VCPU: 6 },
      INSTANCE: { consumer_count: 1, DISK_GB: 10 },
    });
  });
});
