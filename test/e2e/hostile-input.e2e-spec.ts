import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { isUpstreamError, rawExchange, RawAnswer, requestBytes } from '../support/raw-http.js';
import { startServerProcess, ServerProcess } from '../support/server-process.js';

/** Issue 15: bad input is a 4xx in upstream's shape and changes nothing; the built server, real PostgreSQL. */
jest.setTimeout(60_000);

describe('hostile input against the built server', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let sql: Client;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startServerProcess({ DATABASE_URL: db.url, PLACEMENT_AUTH_STRATEGY: 'noauth2' });
    sql = new Client({ connectionString: db.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql.end();
    await server.stop();
    await db.drop();
  });

  const logHead = async () => Number((await sql.query('SELECT count(*) AS n FROM es_events')).rows[0].n);
  const one = async (bytes: Buffer | string): Promise<RawAnswer> => {
    const { answers } = await rawExchange(server.url, bytes);
    expect(answers).toHaveLength(1);
    return answers[0];
  };
  const refused = async (status: number, bytes: Buffer | string, detail?: RegExp) => {
    const before = await logHead();
    const answer = await one(bytes);
    expect(answer.status).toBe(status);
    expect(isUpstreamError(answer)).toBe(true);
    if (detail) expect(answer.json.errors[0].detail).toMatch(detail);
    expect(await logHead()).toBe(before);
    return answer;
  };

  it('refuses a body nested 100,000 levels deep with a 400', async () => {
    const answer = await refused(400, requestBytes('POST', '/resource_providers', `{"name": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`), /nested deeper/);
    expect(isUpstreamError(answer, true)).toBe(true);
  });

  it('refuses NUL, lone surrogates and invalid UTF-8 in a body with a 400', async () => {
    await refused(400, requestBytes('POST', '/resource_providers', '{"name": "a\\u0000b"}'), /NUL/);
    await refused(400, requestBytes('POST', '/resource_providers', '{"name": "\\ud800"}'), /unpaired surrogate/);
    await refused(400, requestBytes('POST', '/resource_providers', Buffer.from([...Buffer.from('{"name": "'), 0xff, 0xfe, ...Buffer.from('"}')])),
      /Malformed JSON: 'utf-8' codec can't decode byte 0xff in position 10: invalid start byte/);
  });

  it('answers NUL in path segments as upstream answers names it does not know, and in queries with a 400', async () => {
    for (const path of ['/resource_providers/a%00b', '/resource_providers/a%00b/inventories', '/resource_classes/CUSTOM_A%00',
      '/traits/CUSTOM_A%00', '/allocations/a%00b', '/ledger/resource_providers/a%00b/history', '/ledger/consumers/a%00b/history',
      '/ledger/as-of/allocations/a%00b?as_of=2026-01-01T00:00:00Z']) {
      await refused(404, requestBytes('GET', path));
    }
    await refused(404, requestBytes('DELETE', '/resource_providers/a%00b'));
    await refused(400, requestBytes('PUT', '/resource_classes/CUSTOM_A%00'));
    await refused(400, requestBytes('PUT', '/allocations/a%00b', '{"allocations": {}}'));
    await refused(400, requestBytes('GET', '/resource_providers?name=a%00b'));
    await refused(400, requestBytes('GET', '/usages?project_id=a%00b'));
  });

  it('reads as_of times with offsets beyond ±15:59 instead of failing', async () => {
    const created = await one(requestBytes('POST', '/resource_providers', '{"name": "as-of-offsets"}'));
    const { uuid } = created.json;
    const later = await one(requestBytes('GET', `/ledger/as-of/resource_providers/${uuid}?as_of=2999-01-01T00:00:00-16:00`));
    expect(later.status).toBe(200);
    expect(later.json.uuid).toBe(uuid);
    const earlier = await one(requestBytes('GET', `/ledger/as-of/resource_providers/${uuid}?as_of=0001-01-01T00:00:00%2B23:59`));
    expect(earlier.status).toBe(404);
  });

  it("answers a write followed by a stray byte with the write's own answer, the stray byte's error after it", async () => {
    const body = '{"name": "stray-byte"}';
    const { answers } = await rawExchange(server.url, Buffer.concat([requestBytes('POST', '/resource_providers', body, { connection: 'keep-alive' }), Buffer.from('x')]));
    expect(answers.map((a) => a.status)).toEqual([200, 400]);
    expect(answers[0].json.name).toBe('stray-byte');
    expect(isUpstreamError(answers[1])).toBe(true);
    const listed = await one(requestBytes('GET', '/resource_providers?name=stray-byte'));
    expect(listed.json.resource_providers).toHaveLength(1);
  });

  it("answers what the HTTP layer refuses in upstream's shape", async () => {
    await refused(400, requestBytes('GET', '/resource_providers/%zz'));
    await refused(414, requestBytes('GET', `/resource_providers/${'a'.repeat(600)}`));
    await refused(400, 'FOO / HTTP/1.1\r\nhost: x\r\n\r\n');
    await refused(400, 'GET / HTTP/1.1\r\nhost: x\r\nbad header: x\r\n\r\n');
    await refused(431, `GET / HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    await refused(405, 'CONNECT example.org:443 HTTP/1.1\r\nhost: example.org\r\n\r\n');
    // A parse error in the in-flight request's own body is that request's answer, at once.
    for (const encoding of ['chunked', 'gzip']) {
      await refused(400, requestBytes('POST', '/resource_providers', '{"name": "x"}', { 'transfer-encoding': encoding, 'content-length': '' })
        .toString().replace('content-length: \r\n', ''));
    }
  });

  it('reads a body over 1 MiB away before its 413, so the client gets the answer, not a broken pipe', async () => {
    const body = `{"name": "${'a'.repeat(3 * 1024 * 1024)}"}`;
    const { answers, error } = await rawExchange(server.url, requestBytes('POST', '/resource_providers', body), 10_000);
    expect(error).toBeUndefined();
    expect(answers.map((a) => a.status)).toEqual([413]);
    expect(isUpstreamError(answers[0], true)).toBe(true);
  });

  it('does the same for a chunked body that outgrows 1 MiB while it is read', async () => {
    const chunk = 'a'.repeat(64 * 1024);
    const chunked = `${Array.from({ length: 48 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('')}0\r\n\r\n`;
    const head = requestBytes('POST', '/resource_providers', undefined, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    const { answers, error } = await rawExchange(server.url, Buffer.concat([head, Buffer.from(chunked)]), 10_000);
    expect(error).toBeUndefined();
    expect(answers.map((a) => a.status)).toEqual([413]);
    expect(isUpstreamError(answers[0], true)).toBe(true);
  });
});
