import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ADMIN_URL, createTestDatabase, TestDatabase } from '../support/database.js';
import { CuttableProxy, proxiedDatabase } from '../support/cuttable-proxy.js';
import { isUpstreamError, rawExchange, RawAnswer, requestBytes } from '../support/raw-http.js';
import { startServerProcess, ServerProcess } from '../support/server-process.js';

jest.setTimeout(90_000);

// A deferred trigger that sleeps makes COMMIT itself take 1.5 s for a provider named slow-commit-*:
// the window in which the connection can be cut with COMMIT sent and not yet answered.
const SLOW_COMMIT = `
CREATE FUNCTION test_slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.data::text LIKE '%slow-commit-%' THEN PERFORM pg_sleep(1.5); END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER test_slow_commit AFTER INSERT ON es_events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_slow_commit();`;

/** Issue 15: a write whose connection is lost during COMMIT is never answered as a failure if it was applied. */
describe('a write whose COMMIT loses its connection', () => {
  let db: TestDatabase;
  let proxy: CuttableProxy;
  let server: ServerProcess;
  let direct: Client;
  beforeAll(async () => {
    db = await createTestDatabase();
    const proxied = await proxiedDatabase(db.url, ADMIN_URL);
    proxy = proxied.proxy;
    server = await startServerProcess({ DATABASE_URL: proxied.url, PLACEMENT_AUTH_STRATEGY: 'noauth2', LOG_LEVEL: 'error' });
    direct = new Client({ connectionString: db.url });
    await direct.connect();
    await direct.query(SLOW_COMMIT);
  });
  afterAll(async () => {
    await direct?.end();
    await server?.stop();
    await proxy?.close();
    await db?.drop();
  });

  /**
   * Sends the create, cuts the proxy once PostgreSQL is inside its COMMIT (the only place the
   * trigger sleeps: pg_stat_activity shows the message cut short, not its closing COMMIT),
   * restores it after `cutForMs`.
   */
  async function createCutDuringCommit(name: string, cutForMs: number): Promise<RawAnswer> {
    const reply = rawExchange(server.url, requestBytes('POST', '/resource_providers', JSON.stringify({ name })), 30_000);
    for (let i = 0; i < 250; i++) {
      const { rows } = await direct.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'");
      if (rows.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, cutForMs));
    await proxy.restore();
    const { answers } = await reply;
    expect(answers).toHaveLength(1);
    return answers[0];
  }

  const ask = async (path: string) => (await rawExchange(server.url, requestBytes('GET', path), 15_000)).answers[0];

  it('answers its success when asking the database again finds it applied', async () => {
    const name = `slow-commit-${randomUUID()}`;
    const answer = await createCutDuringCommit(name, 1000);
    expect(answer.status).toBe(200);
    expect(answer.json.name).toBe(name);
  });

  it('answers 503 "outcome unknown", with how to check, when the database cannot be asked in time; the write is findable by its request id', async () => {
    const name = `slow-commit-${randomUUID()}`;
    const answer = await createCutDuringCommit(name, 8000);
    expect(answer.status).toBe(503);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    expect(isUpstreamError(answer, true)).toBe(true);
    expect(answer.json.errors[0].detail).toMatch(/outcome of this write is unknown.*\/ledger\/audit\/request\/\{request_id\}/s);

    // It was applied (the server committed before it could answer), and the answer's request id finds it.
    const listed = await ask(`/resource_providers?name=${name}`);
    expect(listed.json.resource_providers.map((p: { name: string }) => p.name)).toEqual([name]);
    const audit = await ask(`/ledger/audit/request/${answer.json.errors[0].request_id}`);
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.json)).toContain(name);
  });
});
