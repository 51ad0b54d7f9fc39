import { randomUUID } from 'node:crypto';
import { startSiblingApp, startTestApp, TestApp } from '../support/test-app.js';
import { expectSameBody } from '../support/same-body.js';
import type { RunningApp } from '../../apps/placement-api/src/bootstrap.js';

/**
 * A scheduler asks each flavor again after claims: the kept answer is patched with the providers
 * the writes changed (patch-walk.ts) and its body copied where it still holds (entry-runs.ts),
 * in reused buffers. Over HTTP, after claims here and in another process, deletions, a resized
 * inventory, a trait change and devices added below computes (then claimed with them), every
 * answer is byte for byte what a fresh search gives (the
 * other process, asked with a limit it has not seen, searches afresh), and concurrent answers
 * arrive whole and alike.
 */
describe('allocation candidates: answers patched after claims, over HTTP', () => {
  const PROVIDERS = 700;
  const providers = Array.from({ length: PROVIDERS }, () => randomUUID());
  const FLAVORS = [
    'resources=VCPU:1,MEMORY_MB:512,DISK_GB:5&root_required=!COMPUTE_STATUS_DISABLED',
    'resources=VCPU:4,MEMORY_MB:4096,DISK_GB:40',
    'resources=VCPU:2,MEMORY_MB:2048&required=HW_CPU_X86_AVX2',
  ];
  let app: TestApp;
  let sibling: { running: RunningApp; url: string };
  let fresh = 0;

  const get = async (base: string, flavor: string, limit: number) => {
    const response = await fetch(`${base}/allocation_candidates?${flavor}&limit=${limit}`, {
      headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.36', connection: 'close' },
    });
    expect(response.status).toBe(200);
    return response.text();
  };
  /**
   * Asked of the other process once it has kept nothing of the question: it keeps the answers of
   * the latest sixteen questions (kept-results.ts), so sixteen others, each never asked, come first.
   */
  const searched = async (flavor: string, limit: number) => {
    for (let other = 0; other < 16; other++) await get(sibling.url, 'resources=DISK_GB:1', 1 + fresh++);
    return get(sibling.url, flavor, limit);
  };

  /** PCI devices below some computes, added midway: a question of VCPU, memory and disk is still met by roots alone. */
  const devices = new Map<string, string>();

  const claim = async (base: string, provider: string, vcpu: number) => {
    const consumer = randomUUID();
    const allocations: Record<string, { resources: Record<string, number> }> = { [provider]: { resources: { VCPU: vcpu, MEMORY_MB: 512 } } };
    const device = devices.get(provider);
    if (device) allocations[device] = { resources: { PCI_DEVICE: 1 } };
    const response = await fetch(`${base}/allocations/${consumer}`, {
      method: 'PUT',
      headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.36', 'content-type': 'application/json' },
      body: JSON.stringify({ allocations, project_id: randomUUID(), user_id: randomUUID(), consumer_generation: null }),
    });
    expect(response.status).toBe(204);
    return consumer;
  };

  beforeAll(async () => {
    app = await startTestApp();
    const made = async (method: string, path: string, body: object, status = 200) => expect((await app.request(method, path, { version: '1.39', body })).status).toBe(status);
    for (const [i, uuid] of providers.entries()) {
      await made('POST', '/resource_providers', { uuid, name: `cn${i}` });
      await made('PUT', `/resource_providers/${uuid}/inventories`, {
        resource_provider_generation: 0, inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 8192 }, DISK_GB: { total: 200 } },
      });
      if (i % 3 === 0) await made('PUT', `/resource_providers/${uuid}/traits`, { resource_provider_generation: 1, traits: ['HW_CPU_X86_AVX2'] });
    }
    sibling = await startSiblingApp(app);
  }, 180_000);

  afterAll(async () => {
    await sibling?.running.close();
    await app?.close();
  });

  it('answers each flavor after claims, deletions and other writes exactly as a fresh search, limited or not, before and after computes get devices', async () => {
    const ask = async (limit: number) => {
      for (const flavor of FLAVORS) expectSameBody(await get(app.baseUrl, flavor, limit), await searched(flavor, limit));
    };
    const limits = [1000, 100];
    for (const limit of limits) await ask(limit);
    const consumers: string[] = [];
    for (let round = 0; round < 14; round++) {
      // Claims here and in the other process: the first providers of every answer, some filled up.
      consumers.push(await claim(app.baseUrl, providers[round % 4], 2));
      consumers.push(await claim(sibling.url, providers[3 * round], 1));
      if (round % 4 === 3) {
        // A deletion gives room back: a provider may come back before where a limit cut the answer.
        const gone = consumers.shift()!;
        expect((await app.request('DELETE', `/allocations/${gone}`, { version: '1.36' })).status).toBe(204);
      }
      if (round === 5) {
        const { body } = await app.request('GET', `/resource_providers/${providers[7]}/inventories`, { version: '1.39' });
        expect((await app.request('PUT', `/resource_providers/${providers[7]}/inventories/VCPU`, { version: '1.39', body: {
          resource_provider_generation: (body as { resource_provider_generation: number }).resource_provider_generation, total: 2,
        } })).status).toBe(200);
      }
      if (round === 6) {
        for (const root of providers.slice(0, 24)) {
          const uuid = randomUUID();
          expect((await app.request('POST', '/resource_providers', { version: '1.39', body: { uuid, name: `pci-${uuid}`, parent_provider_uuid: root } })).status).toBe(200);
          expect((await app.request('PUT', `/resource_providers/${uuid}/inventories`, { version: '1.39', body: {
            resource_provider_generation: 0, inventories: { PCI_DEVICE: { total: 8 } },
          } })).status).toBe(200);
          devices.set(root, uuid);
        }
      }
      if (round === 8) {
        const { body } = await app.request('GET', `/resource_providers/${providers[1]}/traits`, { version: '1.39' });
        expect((await app.request('PUT', `/resource_providers/${providers[1]}/traits`, { version: '1.39', body: {
          resource_provider_generation: (body as { resource_provider_generation: number }).resource_provider_generation, traits: ['COMPUTE_STATUS_DISABLED'],
        } })).status).toBe(200);
      }
      for (const limit of limits) await ask(limit);
    }
    // Each device a claim took from is summarized with its compute, as used as the claims left it.
    const { body } = await app.request('GET', `/allocation_candidates?${FLAVORS[1]}&limit=1000`, { version: '1.36' });
    const summaries = (body as { provider_summaries: Record<string, { resources: Record<string, { used: number }> }> }).provider_summaries;
    expect(summaries[devices.get(providers[3 * 7])!]?.resources.PCI_DEVICE.used).toBe(1);
  }, 120_000);

  it('sends every concurrent answer whole and alike while claims come between them', async () => {
    const flavor = FLAVORS[0];
    for (let round = 0; round < 4; round++) {
      const answers = Promise.all(Array.from({ length: 12 }, () => get(app.baseUrl, flavor, 1000)));
      await claim(app.baseUrl, providers[100 + round], 1);
      const bodies = await answers;
      const after = await get(app.baseUrl, flavor, 1000);
      expectSameBody(after, await searched(flavor, 1000));
      expect(after.length).toBeGreaterThan(256 * 1024);
      for (const body of bodies) JSON.parse(body);
      // Asked before the claim or after it: each is one of the two answers, whole.
      const before = bodies[0];
      for (const body of bodies) expect(body === before || body === after).toBe(true);
    }
  }, 60_000);
});
