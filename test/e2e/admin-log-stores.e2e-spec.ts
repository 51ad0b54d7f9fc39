import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { EXIT, runAdmin } from '#placement-admin/cli.js';
import { LOG_STORES, logStoreEnv, startTestApp, TestApp } from '../support/test-app.js';

jest.setTimeout(60_000);

/**
 * status, verify and rebuild read the log through the event store port: the same arc with the
 * log in PostgreSQL (inline projections) and in KurrentDB (the in-memory client model, the read
 * models written by the asynchronous projector).
 */
describe.each(LOG_STORES)('placement-admin with the log in %s', (store) => {
  let app: TestApp;
  let db: Client;
  const compute = randomUUID(), vm = randomUUID();
  const admin = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(args, { DATABASE_URL: app.databaseUrl, ...logStoreEnv(store) },
      { out: (l) => out.push(l), err: (l) => err.push(l) }, undefined, app.externalLog);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const ok = async (method: string, path: string, body?: unknown) => {
    const reply = await app.request(method, path, { body, version: '1.39' });
    if (![200, 201, 204].includes(reply.status)) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`);
  };

  beforeAll(async () => {
    app = await startTestApp({}, store);
    db = new Client({ connectionString: app.databaseUrl });
    await db.connect();
    await ok('POST', '/resource_providers', { name: 'compute-1', uuid: compute });
    await ok('PUT', `/resource_providers/${compute}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 16 } } });
    await ok('PUT', `/allocations/${vm}`, {
      allocations: { [compute]: { resources: { VCPU: 2 } } }, project_id: 'p', user_id: 'u', consumer_generation: null, consumer_type: 'INSTANCE',
    });
  });
  afterAll(async () => {
    await db.end();
    await app.close();
  });

  it('shows the log read through the port and each projection caught up with it', async () => {
    const result = await admin('status', '--json');
    expect(result.err).toBe('');
    const status = JSON.parse(result.out);
    expect(status.log.events).toBeGreaterThanOrEqual(3);
    expect(status.log.head).not.toBeNull();
    const mode = store === 'kurrentdb' ? 'async' : 'inline';
    expect(status.projections.map((p: { mode: string; lag: number }) => [p.mode, p.lag])).toEqual(status.projections.map(() => [mode, 0]));
  });

  it('finds the read models matching the log, then the drift a corruption makes', async () => {
    const clean = await admin('verify');
    expect(clean.out).toMatch(/verify: the read models match the log \(\d+ events/);
    expect(clean.code).toBe(EXIT.ok);
    await db.query('UPDATE read_models.rm_inventories SET total = 999 WHERE provider_uuid = $1', [compute]);
    const drift = await admin('verify');
    expect(drift.out).toContain(`different provider_uuid="${compute}" resource_class="VCPU": total expected 16, found 999`);
    expect(drift.code).toBe(EXIT.drift);
  });

  it('rebuilds from the log, the API writes on into the new tables, and verify stays clean', async () => {
    const rebuilt = await admin('rebuild');
    expect(rebuilt.out).toMatch(/rebuild: done: \d+ events/);
    expect(rebuilt.code).toBe(EXIT.ok);
    expect((await app.request('GET', `/resource_providers/${compute}/inventories`)).body.inventories.VCPU.total).toBe(16);
    await ok('PUT', `/allocations/${vm}`, {
      allocations: { [compute]: { resources: { VCPU: 4 } } }, project_id: 'p', user_id: 'u', consumer_generation: 1, consumer_type: 'INSTANCE',
    });
    expect((await app.request('GET', `/resource_providers/${compute}/usages`)).body.usages.VCPU).toBe(4);
    const after = await admin('verify');
    expect(after.out).not.toContain('DRIFT');
    expect(after.code).toBe(EXIT.ok);
  });

  it('indexes the stream lookups of a KurrentDB log from where it last stopped, and has nothing to do on PostgreSQL', async () => {
    const first = await admin('index-lookups');
    expect(first).toMatchObject({ code: EXIT.ok, err: '' });
    if (store !== 'kurrentdb') {
      expect(first.out).toBe('index-lookups: nothing to do: PostgreSQL indexes the lookups itself, at start-up');
      return;
    }
    // The API's appends here were indexed as written: the entries are the backfill's harmless doubles.
    expect(first.out).toMatch(/^index-lookups: \d+ index entries written for the events after the start up to \d+\/\d+$/);
    expect((await admin('index-lookups')).out).toMatch(/^index-lookups: 0 index entries written for the events after (\d+\/\d+) up to \1$/);
  });
});
