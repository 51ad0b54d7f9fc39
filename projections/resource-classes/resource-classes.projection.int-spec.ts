import type { RecordedEvent } from '#event-store/index.js';
import { useReadModelDatabase } from '#test/support/read-model-database.js';
import { resourceClassesProjection } from './resource-classes.projection.js';

let revision = 0;
const event = (type: string, stream: string, data: object): RecordedEvent<any> => ({
  stream, revision: revision++, position: { commit: 1n, prepare: BigInt(revision) }, type, data, metadata: {},
  recordedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, revision)),
});

describe('resource classes projection', () => {
  const db = useReadModelDatabase();

  const customRows = async () =>
    (await db.pool.query('SELECT name, id, created_at, updated_at FROM rm_resource_classes WHERE custom ORDER BY id')).rows;

  it('creates, renames (keeping the id), deletes; replaying everything twice gives the same rows', async () => {
    const log = [
      event('ResourceClassCreated', 'resource-class-CUSTOM_A', { name: 'CUSTOM_A', v: 1 }),
      event('ResourceClassCreated', 'resource-class-CUSTOM_B', { name: 'CUSTOM_B', renamed_from: 'CUSTOM_A', v: 1 }),
      event('ResourceClassRenamed', 'resource-class-CUSTOM_A', { name: 'CUSTOM_A', to: 'CUSTOM_B', v: 1 }),
      // The old name is free again after the rename.
      event('ResourceClassCreated', 'resource-class-CUSTOM_A', { name: 'CUSTOM_A', v: 1 }),
      event('ResourceClassCreated', 'resource-class-CUSTOM_C', { name: 'CUSTOM_C', v: 1 }),
      event('ResourceClassDeleted', 'resource-class-CUSTOM_C', { name: 'CUSTOM_C', v: 1 }),
    ];
    for (const e of log) await resourceClassesProjection.apply(db.pool, e);
    const once = await customRows();
    expect(once.map((r) => r.name)).toEqual(['CUSTOM_B', 'CUSTOM_A']);
    expect(once[0].id).toBe(10000);
    expect(once[0].updated_at).toEqual(log[2].recordedAt);
    for (const e of log) await resourceClassesProjection.apply(db.pool, e);
    expect((await customRows()).map((r) => r.name)).toEqual(['CUSTOM_B', 'CUSTOM_A']);
  });

  it('leaves the standard classes alone', async () => {
    const { rows } = await db.pool.query("SELECT id FROM rm_resource_classes WHERE name = 'VCPU'");
    expect(rows).toEqual([{ id: 0 }]);
  });
});
