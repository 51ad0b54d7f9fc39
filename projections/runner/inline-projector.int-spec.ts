import { WrongExpectedRevision } from '#event-store/index.js';
import { useReadModelDatabase } from '#test/support/read-model-database.js';

const UUID = 'a0000000-0000-4000-8000-0000000000aa';
const created = { type: 'ResourceProviderCreated', data: { uuid: UUID, name: 'a', parent_provider_uuid: null, generation: 0 } };

/** The store's appends with the inline projections, whose checkpoints ride with the COMMIT. */
describe('inline projections, checkpoints sent with the COMMIT', () => {
  const database = useReadModelDatabase();

  const state = async () => (await database.pool.query(
    `SELECT (SELECT array_agg(DISTINCT commit_xid::text || ':' || position) FROM rm_projection_checkpoints) AS checkpoints,
            (SELECT transaction_id::text || ':' || position FROM es_events ORDER BY transaction_id DESC, position DESC LIMIT 1) AS head,
            (SELECT count(*)::int FROM rm_resource_providers) AS providers`)).rows[0];

  it('moves every checkpoint to the append in its transaction; a refused append moves nothing', async () => {
    await database.eventStore.append([{ stream: `provider-${UUID}`, expectedRevision: -1, events: [created] }]);
    const after = await state();
    expect(after.checkpoints).toEqual([after.head]);
    expect(after.providers).toBe(1);
    const refused = database.eventStore.append([{ stream: `provider-${UUID}`, expectedRevision: -1, events: [created] }]);
    await expect(refused).rejects.toBeInstanceOf(WrongExpectedRevision);
    expect(await state()).toEqual(after);
  });
});
