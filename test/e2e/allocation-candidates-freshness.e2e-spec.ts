import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { RunningApp } from '#placement-api/bootstrap.js';
import { ADMIN_URL } from '../support/database.js';
import { startSiblingApp, startTestApp, TestApp } from '../support/test-app.js';

/**
 * The candidate index lives in each API process; these arcs write through one process and ask
 * another, as two instances behind a load balancer do.
 */
describe('GET /allocation_candidates reflects every write acknowledged before it', () => {
  let writer: TestApp;
  let reader: RunningApp;
  let readerUrl: string;

  beforeAll(async () => {
    writer = await startTestApp();
    ({ running: reader, url: readerUrl } = await startSiblingApp(writer));
  }, 60_000);
  afterAll(async () => {
    await reader.close();
    await writer.close();
  });

  const candidates = async (query: string) => {
    const reply = await fetch(`${readerUrl}/allocation_candidates?${query}`, {
      headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39' },
    });
    expect(reply.status).toBe(200);
    return ((await reply.json()) as { allocation_requests: unknown }).allocation_requests as { allocations: Record<string, { resources: Record<string, number> }> }[];
  };

  async function computeNode(vcpus: number): Promise<string> {
    const uuid = randomUUID();
    expect((await writer.request('POST', '/resource_providers', { version: '1.39', body: { uuid, name: uuid } })).status).toBe(200);
    const inventories = { resource_provider_generation: 0, inventories: { VCPU: { total: vcpus } } };
    expect((await writer.request('PUT', `/resource_providers/${uuid}/inventories`, { version: '1.39', body: inventories })).status).toBe(200);
    return uuid;
  }

  it('sees each provider another process created, on the very next query', async () => {
    for (let i = 1; i <= 10; i++) {
      const uuid = await computeNode(100 + i);
      const found = await candidates(`resources=VCPU:${100 + i}`);
      expect(found.map((c) => Object.keys(c.allocations)[0])).toEqual([uuid]);
    }
  });

  it('sees a claim another process wrote', async () => {
    const uuid = await computeNode(300);
    const claim = { allocations: { [uuid]: { resources: { VCPU: 250 } } }, project_id: randomUUID(), user_id: randomUUID(), consumer_generation: null, consumer_type: 'INSTANCE' };
    expect((await candidates('resources=VCPU:200')).some((c) => uuid in c.allocations)).toBe(true);
    expect((await writer.request('PUT', `/allocations/${randomUUID()}`, { version: '1.39', body: claim })).status).toBe(204);
    expect((await candidates('resources=VCPU:200')).some((c) => uuid in c.allocations)).toBe(false);
  });

  it('is not held back by a long transaction in another database of the cluster', async () => {
    const other = new Client({ connectionString: ADMIN_URL });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_current_xact_id()');
      const uuid = await computeNode(555);
      const started = Date.now();
      expect((await candidates('resources=VCPU:555')).map((c) => Object.keys(c.allocations)[0])).toEqual([uuid]);
      // Held back, it would wait for the other transaction, which stays open until after this line.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
  });
});
