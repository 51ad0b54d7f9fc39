import type { RecordedEvent } from '#event-store/index.js';
import { useReadModelDatabase } from '#test/support/read-model-database.js';
import { traitsProjection } from './traits.projection.js';

let revision = 0;
const event = (type: string, name: string): RecordedEvent<any> => ({
  stream: `trait-${name}`, revision: revision++, position: { commit: 1n, prepare: BigInt(revision) }, type,
  data: { name, v: 1 }, metadata: {}, recordedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, revision)),
});

describe('traits projection', () => {
  const db = useReadModelDatabase();

  it('adds and removes custom traits; replaying twice gives the same rows', async () => {
    const log = [event('TraitCreated', 'CUSTOM_A'), event('TraitCreated', 'CUSTOM_B'), event('TraitDeleted', 'CUSTOM_A')];
    for (const e of log) await traitsProjection.apply(db.pool, e);
    for (const e of log) await traitsProjection.apply(db.pool, e);
    const { rows } = await db.pool.query('SELECT name, created_at FROM rm_traits WHERE custom ORDER BY name');
    expect(rows).toEqual([{ name: 'CUSTOM_B', created_at: log[1].recordedAt }]);
    const standard = await db.pool.query("SELECT custom FROM rm_traits WHERE name = 'HW_CPU_X86_SSE'");
    expect(standard.rows).toEqual([{ custom: false }]);
  });
});
