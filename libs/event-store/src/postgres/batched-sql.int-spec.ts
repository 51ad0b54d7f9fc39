import { Pool, PoolClient } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { BatchedSql, withLiterals } from './batched-sql.js';

describe('BatchedSql: statements that need no answer ride with the next round trip', () => {
  let db: TestDatabase;
  let pool: Pool;
  let client: PoolClient;
  let roundTrips: number;

  beforeAll(async () => {
    db = await createTestDatabase('pl_batched');
    pool = new Pool({ connectionString: db.url, max: 2 });
    await pool.query('CREATE TABLE t (k text PRIMARY KEY, n bigint, at timestamptz, tags text[], doc jsonb, ok boolean, f float8)');
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });
  beforeEach(async () => {
    client = await pool.connect();
    const query = client.query.bind(client);
    roundTrips = 0;
    client.query = ((...args: unknown[]) => {
      roundTrips++;
      return (query as (...a: unknown[]) => unknown)(...args);
    }) as typeof client.query;
    await pool.query('TRUNCATE t');
    roundTrips = 0;
  });
  afterEach(() => client.release());

  it('sends held statements and the next query in one round trip, in order, answering with the query\'s rows', async () => {
    const tx = new BatchedSql(client);
    tx.defer('BEGIN');
    tx.defer('INSERT INTO t (k, n) VALUES ($1, $2)', ['a', 1]);
    tx.defer('UPDATE t SET n = n + $2 WHERE k = $1', ['a', 41]);
    const { rows } = await tx.query<{ n: string }>('SELECT n FROM t WHERE k = $1', ['a']);
    expect(rows).toEqual([{ n: '42' }]);
    expect(roundTrips).toBe(1);
    tx.defer('INSERT INTO t (k, n) VALUES ($1, $2)', ['b', 2]);
    await client.query([...tx.takeDeferred(), 'COMMIT'].join(';\n'));
    expect(roundTrips).toBe(2);
    expect(tx.takeDeferred()).toEqual([]);
    expect((await pool.query('SELECT k, n FROM t ORDER BY k')).rows).toEqual([{ k: 'a', n: '42' }, { k: 'b', n: '2' }]);
  });

  it('sends a query with nothing held as a prepared statement', async () => {
    const tx = new BatchedSql(client);
    await tx.query('SELECT $1::int AS one', [1]);
    await tx.query('SELECT $1::int AS one', [1]);
    const { rows } = await client.query<{ count: string }>("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int%'");
    expect(rows[0].count).toBe('1');
  });

  it('stores every kind of value written in as a literal as it stores the same value sent as a parameter', async () => {
    const values = [
      "it's a \\back'slash\\ \"quoted\" 'x'", 9007199254740993n, new Date('2026-11-26T10:11:12.345Z'),
      ['plain', 'with "quotes"', 'with \\ backslash', "it's", null, ''], JSON.stringify({ a: "b'c", d: [1, '\\'] }), true, 0.1,
    ];
    const columns = '(k, n, at, tags, doc, ok, f) VALUES ($1, $2, $3, $4, $5, $6, $7)';
    await pool.query(`INSERT INTO t ${columns}`, ['param', ...values.slice(1)]);
    const tx = new BatchedSql(client);
    tx.defer(`INSERT INTO t ${columns}`, ['literal', ...values.slice(1)]);
    await tx.query('SELECT 1');
    const { rows } = await pool.query('SELECT n::text, at, tags, doc, ok, f FROM t ORDER BY k');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(rows[1]);
    expect(rows[0].tags).toEqual(values[3]);
    // A key with quotes and backslashes round-trips too.
    tx.defer('INSERT INTO t (k) VALUES ($1)', [values[0]]);
    await tx.query('SELECT 1');
    expect((await pool.query('SELECT count(*)::int AS n FROM t WHERE k = $1', [values[0]])).rows[0].n).toBe(1);
  });

  it('fails the round trip at the first failing statement, running none after it', async () => {
    const tx = new BatchedSql(client);
    tx.defer('BEGIN');
    tx.defer('INSERT INTO t (k, n) VALUES ($1, $2)', ['a', 1]);
    tx.defer('INSERT INTO t (k, n) VALUES ($1, $2)', ['a', 2]);
    await expect(tx.query('SELECT 1')).rejects.toMatchObject({ code: '23505' });
    await client.query('ROLLBACK');
    expect((await pool.query('SELECT count(*)::int AS n FROM t')).rows[0].n).toBe(0);
  });
});

describe('withLiterals', () => {
  it('replaces placeholders outside quotes only, and $10 as itself', () => {
    const params = Array.from({ length: 10 }, (_, i) => `v${i + 1}`);
    expect(withLiterals(`SELECT $1, '$2', "$3", $10::text, 'it''s $4'`, params)).toBe(`SELECT 'v1', '$2', "$3", 'v10'::text, 'it''s $4'`);
    expect(withLiterals('SELECT $1, $2', [null, undefined])).toBe('SELECT NULL, NULL');
  });

  it('refuses what it cannot write safely', () => {
    expect(() => withLiterals('SELECT $2', ['a'])).toThrow('$2 has no parameter');
    expect(() => withLiterals("SELECT 'open", [])).toThrow('unclosed quote');
    expect(() => withLiterals('SELECT $$body$$', [])).toThrow('dollar quoting');
  });
});
