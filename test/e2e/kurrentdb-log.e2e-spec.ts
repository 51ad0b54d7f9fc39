import { randomUUID } from 'node:crypto';
import type { RunningApp } from '#placement-api/bootstrap.js';
import { InMemoryKurrentClient } from '#event-store/kurrent/testing/in-memory-kurrent-client.js';
import { KurrentApp, startKurrentApp } from '../support/kurrent/kurrent-app.js';

jest.setTimeout(60_000);

const HEADERS = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39', 'content-type': 'application/json' };

/**
 * PLACEMENT_EVENT_STORE=kurrentdb without a server: the app boots over the KurrentDB adapter
 * on the client's in-memory model, appends go there, the embedded projector reads its $all
 * into the read models in PostgreSQL, and reads and candidates see every write.
 */
describe('the event log in KurrentDB (adapter over the in-memory client)', () => {
  let app: KurrentApp;
  let running: RunningApp;
  let client: InMemoryKurrentClient;
  let base: string;

  beforeAll(async () => {
    client = new InMemoryKurrentClient();
    app = await startKurrentApp(client);
    ({ running, base } = app);
  });

  afterAll(async () => app?.close());

  async function call(method: string, path: string, body?: unknown) {
    const reply = await fetch(base + path, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await reply.text();
    return { status: reply.status, body: text ? JSON.parse(text) : undefined };
  }

  it('serves a create, inventory, claim and read round-trip from a log kept in KurrentDB', async () => {
    const rp = randomUUID();
    const consumer = randomUUID();
    expect((await call('POST', '/resource_providers', { uuid: rp, name: `kdb-${rp}` })).status).toBe(200);
    const inventory = await call('PUT', `/resource_providers/${rp}/inventories`, {
      resource_provider_generation: 0, inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 4096 } },
    });
    expect(inventory.status).toBe(200);
    expect(inventory.body.resource_provider_generation).toBe(1);

    const candidates = await call('GET', '/allocation_candidates?resources=VCPU:2,MEMORY_MB:512');
    expect(candidates.status).toBe(200);
    expect(Object.keys(candidates.body.provider_summaries)).toEqual([rp]);

    const claim = await call('PUT', `/allocations/${consumer}`, {
      allocations: { [rp]: { resources: { VCPU: 2, MEMORY_MB: 512 } } },
      project_id: randomUUID(), user_id: randomUUID(), consumer_generation: null, consumer_type: 'INSTANCE',
    });
    expect([claim.status, claim.body]).toEqual([204, undefined]);

    const usages = await call('GET', `/resource_providers/${rp}/usages`);
    expect(usages.body).toEqual({ resource_provider_generation: 2, usages: { VCPU: 2, MEMORY_MB: 512 } });
    expect((await call('GET', `/allocations/${consumer}`)).body.allocations[rp].resources).toEqual({ VCPU: 2, MEMORY_MB: 512 });

    // The log is in KurrentDB's model, not in PostgreSQL's es_events.
    expect(client.log.some((record) => record.streamId === `provider-${rp}`)).toBe(true);
    const { rows } = await running.database.pool.query('SELECT count(*)::int AS n FROM es_events');
    expect(rows[0].n).toBe(0);
  });

  it("keeps KurrentDB's $all positions {commit, prepare} in the checkpoints' 64-bit columns, up to the last append", async () => {
    const { rows } = await running.database.pool.query<{ commit: string; position: string; types: string }>(
      `SELECT commit_xid::text AS commit, position::text AS position, pg_typeof(commit_xid)::text || ',' || pg_typeof(position)::text AS types
       FROM rm_projection_checkpoints`);
    const last = client.log[client.log.length - 1].position;
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      expect(row.types).toBe('xid8,bigint');
      expect([BigInt(row.commit), BigInt(row.position)]).toEqual([last, last]);
    }
  });

  it('keeps provider names unique through reservation streams: one of several racing creations wins, a rename frees the old name', async () => {
    const name = `kdb-race-${randomUUID()}`;
    const replies = await Promise.all([1, 2, 3, 4].map(() => call('POST', '/resource_providers', { uuid: randomUUID(), name })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    for (const r of replies.filter((x) => x.status === 409)) expect(r.body.errors[0].code).toBe('placement.duplicate_name');
    const winner = replies.find((r) => r.status === 200)!.body;
    expect((await call('PUT', `/resource_providers/${winner.uuid}`, { name: `${name}-renamed` })).status).toBe(200);
    expect((await call('POST', '/resource_providers', { uuid: randomUUID(), name })).status).toBe(200);
    expect((await call('GET', `/resource_providers?name=${name}`)).body.resource_providers).toHaveLength(1);
  });

  it('answers the ledger endpoints from the log in KurrentDB (the arcs of test/e2e/ledger-*.e2e-spec.ts run here too)', async () => {
    const rp = randomUUID();
    expect((await call('POST', '/resource_providers', { uuid: rp, name: `kdb-ledger-${rp}` })).status).toBe(200);
    const history = await call('GET', `/ledger/resource_providers/${rp}/history`);
    expect([history.status, history.body.events.map((e: { type: string }) => e.type)]).toEqual([200, ['ResourceProviderCreated']]);
    const asOf = await call('GET', `/ledger/as-of/resource_providers/${rp}?as_of=${history.body.events[0].position}`);
    expect([asOf.status, asOf.body.generation]).toEqual([200, 0]);
    expect((await call('GET', `/ledger/resource_providers/${randomUUID()}/history`)).status).toBe(404);
  });
});
