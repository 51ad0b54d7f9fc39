import { randomUUID } from 'node:crypto';
import { databaseFailure } from '#placement-api/platform/dependency-errors.js';
import { START } from '#event-store/index.js';
import { KurrentEventStore } from '#event-store/kurrent/kurrent-event-store.js';
import { KurrentApp, startKurrentApp } from '../support/kurrent/kurrent-app.js';
import { UnreachableKurrentClient } from '../support/kurrent/unreachable-kurrent-client.js';

jest.setTimeout(60_000);

const HEADERS = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39', 'content-type': 'application/json' };

/** Issue 15: a KurrentDB that cannot be reached is a 503 with Retry-After, as PostgreSQL's loss is; then it serves again. */
describe('the event log in KurrentDB, unreachable', () => {
  let app: KurrentApp;
  let client: UnreachableKurrentClient;
  let base: string;

  beforeAll(async () => {
    client = new UnreachableKurrentClient();
    app = await startKurrentApp(client);
    ({ base } = app);
  });
  afterAll(async () => app?.close());

  async function call(method: string, path: string, body?: unknown) {
    const reply = await fetch(base + path, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await reply.text();
    return { status: reply.status, retryAfter: reply.headers.get('retry-after'), body: text ? JSON.parse(text) : undefined };
  }

  it('answers writes and log reads with 503 + Retry-After in upstream\'s shape while it is away, and serves again once back', async () => {
    const rp = randomUUID();
    expect((await call('POST', '/resource_providers', { uuid: rp, name: `kdb-${rp}` })).status).toBe(200);
    expect((await call('PUT', `/resource_providers/${rp}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 8 } } })).status).toBe(200);

    client.down = true;
    const claim = { allocations: { [rp]: { resources: { VCPU: 1 } } }, project_id: 'p', user_id: 'u', consumer_generation: null, consumer_type: 'INSTANCE' };
    for (const [method, path, body] of [
      ['POST', '/resource_providers', { name: `kdb-during-${rp}` }],
      ['PUT', `/allocations/${randomUUID()}`, claim],
      ['GET', '/allocation_candidates?resources=VCPU:1'],
    ] as const) {
      const answer = await call(method, path, body);
      expect({ path, status: answer.status }).toEqual({ path, status: 503 });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(answer.body.errors).toEqual([expect.objectContaining({ status: 503, code: expect.any(String), request_id: expect.any(String) })]);
      expect(answer.body.errors[0].detail).toMatch(/event log \(KurrentDB\) is unavailable/);
    }
    // The read models are in PostgreSQL: what they answer is still answered.
    expect((await call('GET', `/resource_providers/${rp}`)).status).toBe(200);

    client.down = false;
    expect((await call('PUT', `/allocations/${randomUUID()}`, claim)).status).toBe(204);
    expect((await call('GET', `/resource_providers/${rp}/usages`)).body.usages).toEqual({ VCPU: 1 });
  });

  it('maps what the real client throws with no server at all to the same 503, an append that never left as not applied', async () => {
    // A port nobody listens on: the client's own errors, not a model of them.
    const store = KurrentEventStore.connect(`kurrentdb://127.0.0.1:${40000 + Math.floor(Math.random() * 9000)}?tls=false`);
    try {
      const failures = await Promise.all([
        store.append([{ stream: 'x', expectedRevision: 'any', events: [{ type: 'T', data: {}, metadata: {} }] }]).catch((e) => e),
        store.readStream('x').catch((e) => e),
        store.readAll(START, 10).catch((e) => e),
      ]);
      for (const failure of failures) {
        const answer = databaseFailure(failure);
        expect({ status: answer?.status, detail: answer?.detail }).toEqual({ status: 503, detail: 'The event log (KurrentDB) is unavailable; retry later.' });
      }
    } finally {
      await store.close();
    }
  });
});
