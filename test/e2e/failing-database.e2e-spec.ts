import { ADMIN_URL, createTestDatabase, TestDatabase } from '../support/database.js';
import { CuttableProxy, proxiedDatabase } from '../support/cuttable-proxy.js';
import { isUpstreamError, rawExchange, RawAnswer, requestBytes } from '../support/raw-http.js';
import { startServerProcess, ServerProcess } from '../support/server-process.js';

jest.setTimeout(90_000);

/** Issue 15: PostgreSQL gone is a 503 with Retry-After, /readyz says why, and the service recovers by itself. */
describe('a database that goes away and comes back', () => {
  let db: TestDatabase;
  let proxy: CuttableProxy;
  let server: ServerProcess;
  beforeAll(async () => {
    db = await createTestDatabase();
    const proxied = await proxiedDatabase(db.url, ADMIN_URL);
    proxy = proxied.proxy;
    server = await startServerProcess({ DATABASE_URL: proxied.url, PLACEMENT_AUTH_STRATEGY: 'noauth2' });
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await db?.drop();
  });

  const ask = async (method: string, path: string, body?: string): Promise<RawAnswer> => {
    // Generous: a request queued for a connection may meet the pool's 10 s connect time-out more than once.
    const { answers } = await rawExchange(server.url, requestBytes(method, path, body), 60_000);
    expect(answers).toHaveLength(1);
    return answers[0];
  };

  it('answers 503 with Retry-After while PostgreSQL is unreachable, and serves again once it is back', async () => {
    expect((await ask('POST', '/resource_providers', '{"name": "before"}')).status).toBe(200);
    await proxy.cut();

    for (const [method, path, body] of [['GET', '/resource_providers'], ['POST', '/resource_providers', '{"name": "during"}'], ['GET', '/usages?project_id=p']]) {
      const answer = await ask(method!, path!, body);
      expect(answer.status).toBe(503);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect(isUpstreamError(answer, true)).toBe(true);
    }
    const ready = await ask('GET', '/readyz');
    expect(ready.status).toBe(503);
    // A probe needs no token: it says why in one word, the error itself is for the log.
    expect(ready.json).toEqual({ status: 'not ready', reason: 'database' });
    // The log is written in batches, at the latest a quarter second later.
    for (let waited = 0; waited < 5000 && !/not ready: database unreachable/.test(server.output()); waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(server.output()).toMatch(/not ready: database unreachable/);
    expect(server.child.exitCode).toBeNull();

    await proxy.restore();
    let listed: RawAnswer | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      listed = await ask('GET', '/resource_providers');
      if (listed.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(listed!.status).toBe(200);
    expect(listed!.json.resource_providers.map((p: { name: string }) => p.name)).toEqual(['before']);
    expect((await ask('POST', '/resource_providers', '{"name": "after"}')).status).toBe(200);
    expect((await ask('GET', '/readyz')).status).toBe(200);
  });

  it('answers requests whose connection is cut mid-way with their result or a 503, never a 500', async () => {
    const inFlight = Array.from({ length: 40 }, (_, i) => (i % 2
      ? ask('GET', '/resource_providers')
      : ask('POST', '/resource_providers', `{"name": "cut-${i}"}`)));
    await new Promise((resolve) => setTimeout(resolve, 15));
    await proxy.cut();
    const replies = await Promise.all(inFlight);
    const statuses = replies.map((a) => a.status);
    await proxy.restore();
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    // Every POST answered 200 was written; one answered 503 but written anyway must have said so:
    // its outcome unknown (its COMMIT cut off, the database unreachable when asked again), or the
    // write applied (committed, then cut off while its answer was read back).
    let listed: RawAnswer | undefined;
    for (let attempt = 0; attempt < 50 && listed?.status !== 200; attempt++) {
      listed = await ask('GET', '/resource_providers');
      if (listed.status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const names = new Set(listed!.json.resource_providers.map((p: { name: string }) => p.name));
    statuses.forEach((status, i) => {
      if (i % 2 === 0 && status === 200) expect(names.has(`cut-${i}`)).toBe(true);
      if (i % 2 === 0 && status === 503 && names.has(`cut-${i}`)) {
        expect(replies[i].json.errors[0].detail).toMatch(/outcome of this write is unknown|This write was applied/);
      }
    });
  });
});
