import { randomUUID } from 'node:crypto';
import { startSiblingApp, startTestApp, TestApp } from '../support/test-app.js';
import { expectSameBody } from '../support/same-body.js';
import type { RunningApp } from '../../apps/placement-api/src/bootstrap.js';

/**
 * GET /allocation_candidates answers the same question again from each unchanged tree's kept
 * part (tree-answers.ts), or whole while nothing was written (kept-results.ts), in buffers used
 * again once a reply finished (reply-buffers.ts). Over
 * HTTP: after a claim and an inventory change in two trees, the answer is exactly what a second process on
 * the same database, which has kept nothing, gives; and concurrent answers over 256 KB, the size
 * from which buffers are reused, all arrive whole and alike.
 */
describe('allocation candidates: kept tree parts and reused buffers over HTTP', () => {
  const TREES = 50;
  const QUERY = '/allocation_candidates?resources=VCPU:1&resources1=PCI_DEVICE:1&resources2=PCI_DEVICE:1&group_policy=none';
  const roots = Array.from({ length: TREES }, () => randomUUID());
  const children = roots.map(() => Array.from({ length: 4 }, () => randomUUID()));
  let app: TestApp;
  let sibling: { running: RunningApp; url: string };

  const get = async (base: string) => {
    const response = await fetch(`${base}${QUERY}`, { headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39', connection: 'close' } });
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    app = await startTestApp();
    const made = async (method: string, path: string, body: object) => expect((await app.request(method, path, { version: '1.39', body })).status).toBe(200);
    for (const [t, root] of roots.entries()) {
      await made('POST', '/resource_providers', { uuid: root, name: `cn${t}` });
      await made('PUT', `/resource_providers/${root}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 8 } } });
      for (const [c, child] of children[t].entries()) {
        await made('POST', '/resource_providers', { uuid: child, name: `cn${t}-pci${c}`, parent_provider_uuid: root });
        await made('PUT', `/resource_providers/${child}/inventories`, { resource_provider_generation: 0, inventories: { PCI_DEVICE: { total: 2 } } });
      }
    }
    sibling = await startSiblingApp(app);
  }, 120_000);

  afterAll(async () => {
    await sibling?.running.close();
    await app?.close();
  });

  it('answers after writes exactly as a process that kept nothing, and every concurrent large answer whole', async () => {
    const first = await get(app.baseUrl);
    // Every tree: root VCPU with 4 x 4 picks of the two PCI groups.
    expect(JSON.parse(first).allocation_requests).toHaveLength(TREES * 16);
    expectSameBody(await get(app.baseUrl), first);

    // Writes that leave both trees able to anchor candidates, but fewer: a claim takes all of one
    // PCI device of tree 0, and one device of tree 1 is cut to a single unit.
    const consumer = randomUUID();
    const claim = await app.request('PUT', `/allocations/${consumer}`, { version: '1.39', body: {
      allocations: { [roots[0]]: { resources: { VCPU: 1 } }, [children[0][0]]: { resources: { PCI_DEVICE: 2 } } },
      project_id: randomUUID(), user_id: randomUUID(), consumer_generation: null, consumer_type: 'INSTANCE',
    } });
    expect(claim.status).toBe(204);
    const inventory = await app.request('PUT', `/resource_providers/${children[1][0]}/inventories`, { version: '1.39', body: {
      resource_provider_generation: 1, inventories: { PCI_DEVICE: { total: 1 } },
    } });
    expect(inventory.status).toBe(200);

    const after = await get(app.baseUrl);
    // Tree 0: 3 x 3 picks left; tree 1: every pick but its cut device taken twice.
    expect(JSON.parse(after).allocation_requests).toHaveLength((TREES - 2) * 16 + 9 + 15);
    expectSameBody(after, await get(sibling.url));
    expect(after.length).toBeGreaterThan(256 * 1024);

    const concurrent = await Promise.all(Array.from({ length: 20 }, () => get(app.baseUrl)));
    for (const body of concurrent) expectSameBody(body, after);
  });

  it('answers a question asked again with the kept answer only until a write, made here or by another process', async () => {
    const before = await get(app.baseUrl);
    expectSameBody(await get(app.baseUrl), before);
    expectSameBody(await get(app.baseUrl), before);
    // The other process claims a device of tree 2: this one reads it from the log before answering.
    const claim = await fetch(`${sibling.url}/allocations/${randomUUID()}`, {
      method: 'PUT',
      headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39', 'content-type': 'application/json' },
      body: JSON.stringify({
        allocations: { [roots[2]]: { resources: { VCPU: 1 } }, [children[2][0]]: { resources: { PCI_DEVICE: 2 } } },
        project_id: randomUUID(), user_id: randomUUID(), consumer_generation: null, consumer_type: 'INSTANCE',
      }),
    });
    expect(claim.status).toBe(204);
    const after = await get(app.baseUrl);
    expect(JSON.parse(after).allocation_requests.length).toBe(JSON.parse(before).allocation_requests.length - 7);
    expectSameBody(after, await get(sibling.url));
    expectSameBody(await get(app.baseUrl), after);
  });

  it('refuses a question asked again once a trait it names is gone, though no provider changed', async () => {
    const ask = () => app.request('GET', '/allocation_candidates?resources=VCPU:1&required=CUSTOM_GONE_SOON', { version: '1.39' });
    expect((await app.request('PUT', '/traits/CUSTOM_GONE_SOON', { version: '1.39' })).status).toBe(201);
    for (const _again of [1, 2, 3]) {
      const answer = await ask();
      expect(answer.status).toBe(200);
      expect(answer.body.allocation_requests).toEqual([]);
    }
    expect((await app.request('DELETE', '/traits/CUSTOM_GONE_SOON', { version: '1.39' })).status).toBe(204);
    const refused = await ask();
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('No such trait(s): CUSTOM_GONE_SOON');
  });
});
