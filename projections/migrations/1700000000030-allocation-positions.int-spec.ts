import { orderedLines } from '#domain/consumer/index.js';
import { useMigrationDatabase } from '#test/support/migration-database.js';
import { InitialReadModels1700000000000 } from './1700000000000-initial-read-models.js';
import { AllocationsReadModels1700000000001 } from './1700000000001-allocations-read-models.js';
import { AllocationPositions1700000000030 } from './1700000000030-allocation-positions.js';

describe('migration 030: rm_allocations.position', () => {
  const db = useMigrationDatabase('pl_positions', [InitialReadModels1700000000000, AllocationsReadModels1700000000001]);

  it('numbers existing rows per consumer as a replay of their (order-less) events does', async () => {
    const held = { 'b-prov': { VCPU_X: 1, VCPUS: 2 }, 'a-prov': { DISK_GB: 5 } };
    for (const [provider, resources] of Object.entries(held)) {
      for (const [rc, used] of Object.entries(resources)) {
        await db.client.query(`INSERT INTO rm_allocations VALUES ('vm1', $1, $2, $3, now(), now())`, [provider, rc, used]);
      }
    }
    await db.client.query(`INSERT INTO rm_allocations VALUES ('vm2', 'z-prov', 'VCPU', 1, now(), now())`);

    await new AllocationPositions1700000000030().up(db.runner());
    const rows = (await db.client.query('SELECT consumer_uuid, provider_uuid, resource_class, position FROM rm_allocations ORDER BY consumer_uuid, position')).rows;
    const replayed = orderedLines(held).map((line, position) => ({ consumer_uuid: 'vm1', provider_uuid: line.provider, resource_class: line.resourceClass, position }));
    expect(rows).toEqual([...replayed, { consumer_uuid: 'vm2', provider_uuid: 'z-prov', resource_class: 'VCPU', position: 0 }]);

    await new AllocationPositions1700000000030().down(db.runner());
    expect((await db.client.query('SELECT count(*)::int AS n FROM rm_allocations')).rows).toEqual([{ n: 4 }]);
  });
});
