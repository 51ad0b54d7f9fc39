import { randomUUID } from 'node:crypto';
import { LOG_STORES, startTestApp, TestApp } from '../support/test-app.js';
import { undoFixture } from '../support/undo-fixture.js';

jest.setTimeout(90_000);

const inventory = (reserved: number) => ({ VCPU: { total: 16, reserved }, MEMORY_MB: { total: 8192, reserved: reserved * 512 } });

/**
 * Incident 2: a resource tracker with a bad configuration rewrote the inventories of every
 * compute node of an aggregate to zero reserved. The aggregate is restored to before it, the
 * providers only: claims made meanwhile and a provider outside the aggregate stay as they are.
 */
describe.each(LOG_STORES)('undo: inventories of an aggregate rewritten (log in %s)', (store) => {
  let app: TestApp;
  const { ok, get, requestId, verifyClean, moment, claim, held } = undoFixture(() => app, store);
  const aggregate = randomUUID();
  const nodes = [randomUUID(), randomUUID(), randomUUID()];
  const outside = randomUUID();
  const vm = randomUUID();
  const before: Record<string, any> = {};
  const rewrites: string[] = [];
  let beforeIncident = '';

  const generationOf = async (uuid: string) => (await get(`/resource_providers/${uuid}`)).generation;
  const restore = (body: object) => app.request('POST', '/ledger/restore', { body, version: '1.39' });

  beforeAll(async () => {
    app = await startTestApp({}, store);
    for (const [i, uuid] of [...nodes, outside].entries()) {
      await ok('POST', '/resource_providers', { name: `node-${i}`, uuid });
      await ok('PUT', `/resource_providers/${uuid}/inventories`, { resource_provider_generation: 0, inventories: inventory(2) });
      if (uuid !== outside) await ok('PUT', `/resource_providers/${uuid}/aggregates`, { resource_provider_generation: 1, aggregates: [aggregate] });
    }
    for (const uuid of nodes) before[uuid] = await get(`/resource_providers/${uuid}/inventories`);
    beforeIncident = await moment();
    for (const uuid of [...nodes, outside]) {
      const reply = await ok('PUT', `/resource_providers/${uuid}/inventories`, { resource_provider_generation: await generationOf(uuid), inventories: inventory(0) });
      rewrites.push(requestId(reply));
    }
    // Meanwhile, a correct claim on the first node.
    await ok('PUT', `/allocations/${vm}`, claim({ [nodes[0]]: { VCPU: 4 } }, 'p', null));
  });
  afterAll(async () => app?.close());

  it('refuses to apply a plan that drifted since it was printed, and appends nothing', async () => {
    const plan = await restore({ as_of: beforeIncident, aggregates: [aggregate], with_consumers: false });
    expect(plan.body.status).toBe('ready');
    await ok('PUT', '/traits/CUSTOM_LATE');
    await ok('PUT', `/resource_providers/${nodes[1]}/traits`, { resource_provider_generation: await generationOf(nodes[1]), traits: ['CUSTOM_LATE'] });
    const generations = await Promise.all(nodes.map(generationOf));
    const refused = await restore({ as_of: beforeIncident, aggregates: [aggregate], with_consumers: false, apply: true, plan_hash: plan.body.plan_hash });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({ code: 'placement.concurrent_update', detail: expect.stringContaining('The plan changed') });
    expect(await Promise.all(nodes.map(generationOf))).toEqual(generations);
  });

  it('restores every node of the aggregate whole, keeping the claim made meanwhile and the node outside', async () => {
    const plan = await restore({ as_of: beforeIncident, aggregates: [aggregate], with_consumers: false });
    expect(plan.body.streams.map((s: any) => s.stream).sort()).toEqual(nodes.map((uuid) => `provider-${uuid}`).sort());
    // A stream in scope comes back whole: the trait set on node 1 since goes too.
    for (const stream of plan.body.streams) {
      expect(stream.events.map((e: any) => e.type)).toEqual(stream.stream === `provider-${nodes[1]}` ? ['InventoriesSet', 'TraitsSet'] : ['InventoriesSet']);
    }
    const generations = await Promise.all(nodes.map(generationOf));
    const applied = await restore({ as_of: beforeIncident, aggregates: [aggregate], with_consumers: false, apply: true, plan_hash: plan.body.plan_hash });
    expect(applied.body.applied).toBe(true);
    for (const [i, uuid] of nodes.entries()) {
      const now = await get(`/resource_providers/${uuid}/inventories`);
      expect(now.inventories).toEqual(before[uuid].inventories);
      expect(now.resource_provider_generation).toBe(generations[i] + (i === 1 ? 2 : 1));
    }
    expect((await get(`/resource_providers/${outside}/inventories`)).inventories.VCPU.reserved).toBe(0);
    expect(held(await get(`/allocations/${vm}`))).toEqual({ [nodes[0]]: { VCPU: 4 } });
    expect((await get(`/resource_providers/${nodes[1]}/traits`)).traits).toEqual([]);
    const history = await get(`/ledger/resource_providers/${nodes[2]}/history?order=desc&limit=1`);
    expect(history.events[0]).toMatchObject({ type: 'InventoriesSet', operation: 'restore', request_id: applied.body.request_id });
    await verifyClean();
  });

  it('plans nothing once the aggregate is as it was', async () => {
    const again = await restore({ as_of: beforeIncident, aggregates: [aggregate], with_consumers: false });
    expect(again.body.status).toBe('nothing_to_do');
  });

  it('reverts one rewrite alone: a claim made on the node since is no conflict', async () => {
    const plan = await app.request('POST', '/ledger/revert', { body: { request_id: rewrites[3] }, version: '1.39' });
    expect(plan.body).toMatchObject({ status: 'ready', conflicts: [] });
    await app.request('POST', '/ledger/revert', { body: { request_id: rewrites[3], apply: true, plan_hash: plan.body.plan_hash }, version: '1.39' });
    expect((await get(`/resource_providers/${outside}/inventories`)).inventories.VCPU.reserved).toBe(2);
    await verifyClean();
  });
});
