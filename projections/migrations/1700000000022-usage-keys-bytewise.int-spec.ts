import { useMigrationDatabase } from '#test/support/migration-database.js';
import { UsageOverTime1700000000020 } from './1700000000020-usage-over-time.js';
import { UsageMoves1700000000021 } from './1700000000021-usage-moves.js';
import { UsageKeysBytewise1700000000022 } from './1700000000022-usage-keys-bytewise.js';

describe('migration 022: the usage tables\' keys compare byte by byte', () => {
  const db = useMigrationDatabase('pl_bytewise', [UsageOverTime1700000000020, UsageMoves1700000000021]);

  const collations = async () => (await db.client.query(
    `SELECT c.relname || '.' || a.attname AS column, coalesce(l.collname, '') AS collation
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_collation l ON l.oid = a.attcollation
      WHERE c.relname IN ('rm_usage_hours', 'rm_usage_moves') AND a.attname IN ('project_id', 'user_id', 'consumer_type', 'resource_class')
      ORDER BY 1`)).rows.map((r) => `${r.column}=${r.collation}`);
  const HOUR = `INSERT INTO rm_usage_hours VALUES ($1, $2, 'INSTANCE', 'VCPU', '2026-03-01T10:00:00Z', 2, 0, 2, '2026-03-01T10:15:00Z')`;

  it('keeps the rows and the keys, compares with parameters, and going back restores the default collation', async () => {
    await db.client.query(HOUR, ['p-é', 'alice']);
    await db.client.query(HOUR, ['p-e', 'Bob']);
    await db.client.query(`INSERT INTO rm_usage_moves VALUES ('p-e', 'Bob', 'INSTANCE', '2026-03-01T10:15:00Z', '{"VCPU": 2}')`);
    expect(await collations()).toEqual([
      'rm_usage_hours.consumer_type=default', 'rm_usage_hours.project_id=default', 'rm_usage_hours.resource_class=default', 'rm_usage_hours.user_id=default',
      'rm_usage_moves.consumer_type=default', 'rm_usage_moves.project_id=default', 'rm_usage_moves.user_id=default',
    ]);

    await new UsageKeysBytewise1700000000022().up(db.runner());
    expect(await collations()).toEqual([
      'rm_usage_hours.consumer_type=C', 'rm_usage_hours.project_id=C', 'rm_usage_hours.resource_class=C', 'rm_usage_hours.user_id=C',
      'rm_usage_moves.consumer_type=C', 'rm_usage_moves.project_id=C', 'rm_usage_moves.user_id=C',
    ]);
    // Byte order: 'B' before 'a', 'e' before 'é'.
    expect((await db.client.query('SELECT project_id, user_id FROM rm_usage_hours ORDER BY project_id, user_id')).rows)
      .toEqual([{ project_id: 'p-e', user_id: 'Bob' }, { project_id: 'p-é', user_id: 'alice' }]);
    expect((await db.client.query('SELECT count(*)::int AS n FROM rm_usage_moves WHERE project_id = $1 AND user_id = $2', ['p-e', 'Bob'])).rows).toEqual([{ n: 1 }]);
    await expect(db.client.query(HOUR, ['p-e', 'Bob'])).rejects.toThrow(/rm_usage_hours_pkey/);

    await new UsageKeysBytewise1700000000022().down(db.runner());
    expect((await collations()).every((c) => c.endsWith('=default'))).toBe(true);
    expect((await db.client.query('SELECT count(*)::int AS n FROM rm_usage_hours')).rows).toEqual([{ n: 2 }]);
  });
});
