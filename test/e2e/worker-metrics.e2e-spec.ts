import { randomUUID } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { sample } from '../support/exposition.js';
import { ServerProcess, startServerProcess } from '../support/server-process.js';

jest.setTimeout(120_000);

const HEADERS = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39', 'content-type': 'application/json' };

/**
 * PLACEMENT_WORKERS=2: node:cluster hands each connection to either worker, and GET /metrics
 * answers for all of them (cluster-scrape.ts), so counters add up whichever worker is scraped
 * and the capacity series, which every worker reads from the same database, are not doubled.
 */
describe('GET /metrics with API workers', () => {
  let database: TestDatabase;
  let server: ServerProcess;

  // A new connection per request, so the cluster spreads them over both workers.
  const call = (method: string, path: string, body?: unknown) =>
    fetch(server.url + path, { method, headers: { ...HEADERS, connection: 'close' }, body: body === undefined ? undefined : JSON.stringify(body) });

  beforeAll(async () => {
    database = await createTestDatabase('pl_workers_metrics');
    server = await startServerProcess({ DATABASE_URL: database.url, PLACEMENT_AUTH_STRATEGY: 'noauth2', PLACEMENT_WORKERS: '2', LOG_LEVEL: 'warn' });
    // Both workers answer the primary once their application is up.
    const deadline = Date.now() + 30_000;
    while ((await call('GET', '/metrics')).status !== 200) {
      if (Date.now() > deadline) throw new Error(`no whole scrape within 30 s:\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('counts every worker\'s requests in every scrape, and the capacity series once', async () => {
    const uuid = randomUUID();
    expect((await call('POST', '/resource_providers', { uuid, name: `rp-${uuid}` })).status).toBe(200);
    expect((await call('PUT', `/resource_providers/${uuid}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 8 } } })).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await call('GET', `/resource_providers/${uuid}`)).status).toBe(200);
    const shown = { method: 'GET', route: '/resource_providers/:uuid', status: '200' };
    for (let scrape = 0; scrape < 4; scrape++) {
      const reply = await call('GET', '/metrics');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toContain('text/plain');
      const text = await reply.text();
      expect(sample(text, 'placement_http_requests_total', shown)).toBe(20);
      expect(sample(text, 'placement_inventory_total', { resource_class: 'VCPU' })).toBe(8);
      expect(sample(text, 'placement_projection_lag_events', { projection: 'providers' })).toBe(0);
    }
  });
});
