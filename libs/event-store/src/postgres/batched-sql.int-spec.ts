import { escapeLiteral, Pool, PoolClient } from 'pg';
import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { BatchedSql, executeOf, sqlName } from './batched-sql.js';

describe('BatchedSql: statements that need no answer ride with the next round trip', () => {
  let db: TestDatabase;
  let pool: Pool;
  let client: PoolClient;
  let messages: string[];

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
    await pool.query('TRUNCATE t');
    const query = client.query.bind(client);
    messages = [];
    client.query = ((first: unknown, ...rest: unknown[]) => {
      messages.push(typeof first === 'string' ? first : (first as { text: string }).text);
      return (query as (...a: unknown[]) => unknown)(first, ...rest);
    }) as typeof client.query;
  });
  afterEach(() => client.release());

  async function transaction(tx: BatchedSql, key: string) {
    tx.defer('BEGIN');
    tx.defer('INSERT INTO t (k, n) VALUES ($1, $2)', [key, 1]);
    tx.defer('UPDATE t SET n = n + $2 WHERE k = $1', [key, 41]);
    const { rows } = await tx.query<{ n: string }>('SELECT n FROM t WHERE k = $1', [key]);
    tx.defer('INSERT INTO t (k, n) VALUES ($1, $2)', [`${key}-2`, 2]);
    await tx.commit();
    return rows;
  }

  it("sends held statements and the next query in one round trip, in order, answering with the query's rows", async () => {
    const tx = new BatchedSql(client);
    expect(await transaction(tx, 'a')).toEqual([{ n: '42' }]);
    // The first time on a connection, its statements are prepared in a round trip of their own.
    expect(messages.filter((m) => m.startsWith('PREPARE'))).toHaveLength(1);
    messages = [];
    expect(await transaction(tx, 'b')).toEqual([{ n: '42' }]);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/^BEGIN;\nEXECUTE plx_\w+\('b', '1'\);\nEXECUTE plx_\w+\('b', '41'\);\nEXECUTE plx_\w+\('b'\)$/);
    expect(messages[1]).toMatch(/^EXECUTE plx_\w+\('b-2', '2'\);\nCOMMIT$/);
    expect((await pool.query('SELECT k, n FROM t ORDER BY k')).rows)
      .toEqual([{ k: 'a', n: '42' }, { k: 'a-2', n: '2' }, { k: 'b', n: '42' }, { k: 'b-2', n: '2' }]);
  });

  it('sends a query with nothing held as a named statement of the protocol', async () => {
    const tx = new BatchedSql(client);
    expect((await tx.query('SELECT $1::int AS one', [1])).rows).toEqual([{ one: 1 }]);
    expect(messages.some((message) => /PREPARE|EXECUTE/.test(message))).toBe(false);
    const named = await client.query("SELECT name FROM pg_prepared_statements WHERE statement = 'SELECT $1::int AS one'");
    expect(named.rows.map((row) => row.name)).toEqual([expect.stringMatching(/^pl_/)]);
  });

  it('sends statements with long parameters apart, each a named statement of the protocol, after a message of those held', async () => {
    const tx = new BatchedSql(client);
    tx.defer('BEGIN');
    tx.defer('INSERT INTO t (k, n) VALUES ($1, $2)', ['short', 1]);
    const long = `it's ${'x'.repeat(70 * 1024)}`;
    const [inserted, counted] = await tx.queryEach<{ n: number }>([
      { text: 'INSERT INTO t (k, tags) VALUES ($1, $2) RETURNING length(k) AS n', params: ['long', [long]] },
      { text: 'SELECT count(*)::int AS n FROM t' },
    ]);
    await client.query('COMMIT');
    expect([inserted.rows, counted.rows]).toEqual([[{ n: 4 }], [{ n: 2 }]]);
    // Each test wraps the pooled connection's query again: a message is recorded once per wrapper.
    const sent = messages.filter((m, i) => m !== messages[i - 1] && !m.startsWith('PREPARE'));
    expect(sent.slice(-4)).toEqual([
      expect.stringMatching(/^BEGIN;\nEXECUTE plx_\w+\('short', '1'\)$/),
      'INSERT INTO t (k, tags) VALUES ($1, $2) RETURNING length(k) AS n', 'SELECT count(*)::int AS n FROM t', 'COMMIT']);
    expect((await pool.query("SELECT tags FROM t WHERE k = 'long'")).rows).toEqual([{ tags: [long] }]);
  });

  it('holds statements whose answers are wanted, and gives them their rows once the COMMIT is answered, a long one sent apart', async () => {
    const tx = new BatchedSql(client);
    tx.defer('BEGIN');
    const long = 'y'.repeat(70 * 1024);
    const held = tx.hold([
      { text: 'INSERT INTO t (k, n) VALUES ($1, $2) RETURNING n', params: ['held', 7] },
      { text: 'INSERT INTO t (k, tags) VALUES ($1, $2) RETURNING length(tags[1]) AS n', params: ['long', [long]] },
    ]);
    tx.defer('UPDATE t SET n = n + 1 WHERE k = $1', ['held']);
    expect(held.results).toBeUndefined();
    await tx.commit();
    expect(held.results!.map((result) => result.rows)).toEqual([[{ n: '7' }], [{ n: long.length }]]);
    const sent = messages.filter((m, i) => m !== messages[i - 1] && !m.startsWith('PREPARE'));
    expect(sent.slice(-3)).toEqual([
      expect.stringMatching(/^BEGIN;\nEXECUTE plx_\w+\('held', '7'\)$/),
      'INSERT INTO t (k, tags) VALUES ($1, $2) RETURNING length(tags[1]) AS n',
      expect.stringMatching(/^EXECUTE plx_\w+\('held'\);\nCOMMIT$/)]);
    expect((await pool.query("SELECT n FROM t WHERE k = 'held'")).rows).toEqual([{ n: '8' }]);
  });

  it('stores every kind of value written in as a literal as it stores the same value sent as a parameter', async () => {
    const values = [
      "it's a \\back'slash\\ \"quoted\" 'x'", 9007199254740993n, new Date('2026-11-26T10:11:12.345Z'),
      ['plain', 'with "quotes"', 'with \\ backslash', "it's", null, ''], JSON.stringify({ a: "b'c", d: [1, '\\'] }), true, 0.1,
    ];
    const insert = 'INSERT INTO t (k, n, at, tags, doc, ok, f) VALUES ($1, $2, $3, $4, $5, $6, $7)';
    await pool.query(insert, ['param', ...values.slice(1)]);
    const tx = new BatchedSql(client);
    tx.defer(insert, ['literal', ...values.slice(1)]);
    tx.defer(insert, [values[0], ...values.slice(1)]);
    await tx.query('SELECT 1');
    const { rows } = await pool.query('SELECT k, n::text, at, tags, doc, ok, f FROM t');
    expect(rows).toHaveLength(3);
    const fields = ({ k: _k, ...rest }: Record<string, unknown>) => rest;
    expect(rows.map(fields)).toEqual([fields(rows[0]), fields(rows[0]), fields(rows[0])]);
    expect(rows[0].tags).toEqual(values[3]);
    expect(rows.map((row) => row.k).sort()).toEqual([values[0], 'literal', 'param'].sort());
  });

  it('writes a text that holds dollar signs, or the dollar quote itself, as it was', async () => {
    const texts = ['ends in $', "$$ and 'quote' \\ $", "holds $plx$ the tag, 'quoted'", '{"a":"b\\"c"}$plx', '$plx$'];
    const tx = new BatchedSql(client);
    texts.forEach((text, i) => tx.defer('INSERT INTO t (k, tags) VALUES ($1, $2)', [`k${i}`, [text, `${text}'`]]));
    texts.forEach((text, i) => tx.defer('UPDATE t SET doc = to_jsonb($2::text) WHERE k = $1', [`k${i}`, text]));
    await tx.query('SELECT 1');
    const { rows } = await pool.query('SELECT tags, doc FROM t ORDER BY k');
    expect(rows).toEqual(texts.map((text) => ({ tags: [text, `${text}'`], doc: text })));
  });

  it('gives a parameter the type the statement gives it, where a bare literal would be ambiguous', async () => {
    const tx = new BatchedSql(client);
    tx.defer('BEGIN');
    tx.defer('INSERT INTO t (k, at) SELECT $1, $2::timestamptz + interval \'1 hour\'', ['hour', new Date('2026-11-26T10:00:00Z')]);
    tx.defer('UPDATE t SET n = 7 WHERE at > $1 AND at < $1 + interval \'2 hours\'', [new Date('2026-11-26T10:30:00Z')]);
    await tx.commit();
    expect((await pool.query("SELECT n FROM t WHERE k = 'hour'")).rows).toEqual([{ n: '7' }]);
  });

  it('fails the round trip at the first failing statement, running none after it', async () => {
    const tx = new BatchedSql(client);
    tx.defer('BEGIN');
    tx.defer('INSERT INTO t (k, n) VALUES ($1, $2)', ['a', 1]);
    tx.defer('INSERT INTO t (k, n) VALUES ($1, $2)', ['a', 2]);
    await expect(tx.query('SELECT 1')).rejects.toMatchObject({ code: '23505' });
    await client.query('ROLLBACK');
    expect((await pool.query('SELECT count(*)::int AS n FROM t')).rows[0].n).toBe(0);
    // What was prepared stays prepared: the next transaction on the connection runs.
    tx.defer('BEGIN');
    tx.defer('INSERT INTO t (k, n) VALUES ($1, $2)', ['a', 3]);
    await tx.commit();
    expect((await pool.query('SELECT n FROM t')).rows).toEqual([{ n: '3' }]);
  });

  it('fails the statement whose PREPARE meets one already there, then asks the server and goes on', async () => {
    const insert = 'INSERT INTO t (k) VALUES ($1)';
    const tx = new BatchedSql(client);
    // What the connection has prepared is known to it now.
    tx.defer('SELECT 1');
    await tx.query('SELECT 1');
    // Prepared behind its back (as a PREPARE message that failed half way leaves it).
    await client.query(`PREPARE ${sqlName(insert)} AS ${insert}`);
    tx.defer(insert, ['a']);
    await expect(tx.query('SELECT 1')).rejects.toThrow(/already exists/);
    tx.defer(insert, ['b']);
    await tx.query('SELECT 1');
    expect((await client.query('SELECT k FROM t')).rows).toEqual([{ k: 'b' }]);
  });
});

describe('executeOf', () => {
  it('writes each parameter as a literal, NULL for none', () => {
    expect(executeOf('plx_a', ['its', 2, null, undefined, ['x', null]])).toBe(`EXECUTE plx_a('its', '2', NULL, NULL, '{"x",NULL}')`);
    expect(executeOf('plx_b', [])).toBe('EXECUTE plx_b');
  });

  const asArray = (value: string | string[]) => (Array.isArray(value) ? `{${value.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}` : value);

  it('quotes a value holding a quote or a backslash in dollars, as it is', () => {
    for (const value of ["it's", 'back\\slash', "both \\ and ' and \\'", ['a "b"', "c'd\\"], JSON.stringify({ q: "'\\\"" }), 'ends in $', '$pl']) {
      expect(executeOf('plx_c', [value])).toBe(value === 'ends in $' || value === '$pl'
        ? `EXECUTE plx_c('${value}')` : `EXECUTE plx_c($plx$${asArray(value)}$plx$)`);
    }
  });

  it("escapes a value the dollar quote would end early as pg's escapeLiteral does", () => {
    for (const value of ["it's $plx$", "back\\slash $plx$ '", "it's ending in $plx", ['a "$plx$"', "c'd\\"]]) {
      expect(executeOf('plx_d', [value])).toBe(`EXECUTE plx_d(${escapeLiteral(asArray(value))})`);
    }
  });
});
