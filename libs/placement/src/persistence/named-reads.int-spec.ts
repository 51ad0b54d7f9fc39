import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { MAX_NAMED_TEXTS, NamedReads } from './named-reads.js';

describe('NamedReads: the read models\' queries as named statements', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase('pl_named_reads');
    // One connection: what it has prepared is what every query met.
    pool = new Pool({ connectionString: db.url, max: 1 });
    await pool.query('CREATE TABLE t (k text PRIMARY KEY, n bigint)');
    await pool.query("INSERT INTO t VALUES ('a', 1), ('b', 2)");
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  const prepared = async () => {
    const { rows } = await pool.query<{ statement: string; generic_plans: string; custom_plans: string }>(
      "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'pl\\_%'");
    return rows;
  };

  it('prepares a parameterised text once per connection and answers as an unnamed query would', async () => {
    const reads = new NamedReads(pool);
    const text = 'SELECT k, n FROM t WHERE n >= $1 ORDER BY k';
    for (let i = 0; i < 8; i++) expect((await reads.query(text, [2])).rows).toEqual([{ k: 'b', n: '2' }]);
    const [statement] = (await prepared()).filter((row) => row.statement === text);
    // Eight executions, all of one statement: planned anew only while PostgreSQL compares plans.
    expect(Number(statement.generic_plans) + Number(statement.custom_plans)).toBe(8);
    expect(Number(statement.generic_plans)).toBeGreaterThan(0);
  });

  it('sends a text without parameters as it is', async () => {
    const reads = new NamedReads(pool);
    const before = (await prepared()).length;
    expect((await reads.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 2 }]);
    expect(await prepared()).toHaveLength(before);
  });

  it('names no more than its bound of texts: past it, texts go unnamed and still answer', async () => {
    const reads = new NamedReads(pool);
    const before = (await prepared()).length;
    for (let i = 0; i < MAX_NAMED_TEXTS + 20; i++) {
      expect((await reads.query(`SELECT $1::int + ${i} AS n`, [1])).rows).toEqual([{ n: 1 + i }]);
    }
    expect((await prepared()).length - before).toBe(MAX_NAMED_TEXTS);
  });
});
