import { useMigrationDatabase } from '#test/support/migration-database.js';
import { UsageOverTime1700000000020 } from './1700000000020-usage-over-time.js';
import { UsageMoves1700000000021 } from './1700000000021-usage-moves.js';

const T1 = '2026-03-01T10:15:00.000Z';
const T2 = '2026-03-01T10:45:00.000Z';

/**
 * What the projection stored before moves: every series of a claimant at 10:15 (alice claims 2
 * VCPU and 512 MB, bob an untyped 1 VCPU), and at 10:45 alice's 2 VCPU passing to bob, as an
 * instance: the project's and the type's series did not move then, so they have no row. The
 * project's and the type's VCPU at 10:15 add alice's and bob's (the old upsert summed them).
 */
const CHANGES: [string, string, string, string, number][] = [
  ...[['', ''], ['alice', ''], ['', 'INSTANCE'], ['alice', 'INSTANCE']].flatMap(([u, t]) =>
    [[u, t, 'VCPU', T1, 2], [u, t, 'MEMORY_MB', T1, 512]] as [string, string, string, string, number][]),
  ...[['', ''], ['bob', ''], ['', 'unknown'], ['bob', 'unknown']].map(([u, t]) => [u, t, 'VCPU', T1, 1] as [string, string, string, string, number]),
  ['alice', '', 'VCPU', T2, -2], ['alice', 'INSTANCE', 'VCPU', T2, -2], ['bob', '', 'VCPU', T2, 2], ['bob', 'INSTANCE', 'VCPU', T2, 2],
];

describe('migration 021: usage changes to claimants\' moves', () => {
  const db = useMigrationDatabase('pl_moves', [UsageOverTime1700000000020]);

  const changes = async () => (await db.client.query(
    `SELECT user_id, consumer_type, resource_class, to_char(at AT TIME ZONE 'UTC', 'HH24:MI') AS at, delta::int AS delta
       FROM rm_usage_changes ORDER BY 1, 2, 3, 4`)).rows;

  it('keeps each claimant\'s move once, and going back gives every series\' changes again', async () => {
    for (const [u, t, c, at, delta] of CHANGES) {
      await db.client.query(
        `INSERT INTO rm_usage_changes VALUES ('p', $1, $2, $3, $4, $5)
         ON CONFLICT (project_id, user_id, consumer_type, resource_class, at) DO UPDATE SET delta = rm_usage_changes.delta + EXCLUDED.delta`,
        [u, t, c, at, delta]);
    }
    const before = await changes();
    await new UsageMoves1700000000021().up(db.runner());
    const { rows } = await db.client.query(
      `SELECT user_id, consumer_type, to_char(at AT TIME ZONE 'UTC', 'HH24:MI') AS at, deltas FROM rm_usage_moves ORDER BY 3, 1`);
    expect(rows).toEqual([
      { user_id: 'alice', consumer_type: 'INSTANCE', at: '10:15', deltas: { VCPU: 2, MEMORY_MB: 512 } },
      { user_id: 'bob', consumer_type: 'unknown', at: '10:15', deltas: { VCPU: 1 } },
      { user_id: 'alice', consumer_type: 'INSTANCE', at: '10:45', deltas: { VCPU: -2 } },
      { user_id: 'bob', consumer_type: 'INSTANCE', at: '10:45', deltas: { VCPU: 2 } },
    ]);
    await new UsageMoves1700000000021().down(db.runner());
    expect(await changes()).toEqual(before);
  });
});
