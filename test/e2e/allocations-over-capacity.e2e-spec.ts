import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

/**
 * upstream bug 2104040 (commit 5ac4c70b): once an operator lowers a provider's capacity under its
 * allocations, consumers there can still change as long as the over-capacity class gets no worse,
 * through PUT /allocations, POST /allocations and POST /reshaper alike.
 */
describe('allocations on a provider already over capacity', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  const V = '1.39';
  const errorOf = (reply: { body: any }) => reply.body.errors[0];
  const exceeded = (rc: string, rp: string) =>
    `Unable to create allocation for '${rc}' on resource provider '${rp}'. The requested amount would exceed the capacity.`;
  const generationOf = async (uuid: string) => (await app.request('GET', `/resource_providers/${uuid}`, { version: V })).body.generation;
  const consumerGeneration = async (uuid: string) => (await app.request('GET', `/allocations/${uuid}`, { version: V })).body.consumer_generation;
  const setInventories = async (rp: string, inventories: object) => {
    const reply = await app.request('PUT', `/resource_providers/${rp}/inventories`, {
      version: V, body: { resource_provider_generation: await generationOf(rp), inventories },
    });
    expect(reply.status).toBe(200);
  };
  const OWNER = { project_id: 'proj', user_id: 'user', consumer_type: 'INSTANCE' };
  const put = async (consumer: string, rp: string, resources: object, owner: object = OWNER) =>
    app.request('PUT', `/allocations/${consumer}`, {
      version: V,
      body: { allocations: { [rp]: { resources } }, ...owner, consumer_generation: (await consumerGeneration(consumer)) ?? null },
    });

  /** VM holds VCPU 6 + MEMORY_MB 512, OTHER VCPU 4 on VCPU 16; then reserved 8 leaves capacity 8 for usage 10. */
  async function overCommitted(): Promise<{ rp: string; vm: string; other: string }> {
    const rp = randomUUID();
    expect((await app.request('POST', '/resource_providers', { version: V, body: { name: `rp-${rp}`, uuid: rp } })).status).toBe(200);
    await setInventories(rp, { VCPU: { total: 16 }, MEMORY_MB: { total: 2048 } });
    const vm = randomUUID();
    const other = randomUUID();
    expect((await put(vm, rp, { VCPU: 6, MEMORY_MB: 512 })).status).toBe(204);
    expect((await put(other, rp, { VCPU: 4 })).status).toBe(204);
    await setInventories(rp, { VCPU: { total: 16, reserved: 8 }, MEMORY_MB: { total: 2048 } });
    return { rp, vm, other };
  }

  it('PUT: a consumer may change its project and user, change another class and shrink, but not grow', async () => {
    const { rp, vm } = await overCommitted();
    expect((await put(vm, rp, { VCPU: 6, MEMORY_MB: 512 }, { project_id: 'proj-b', user_id: 'user-b', consumer_type: 'INSTANCE' })).status).toBe(204);
    expect((await put(vm, rp, { VCPU: 6, MEMORY_MB: 1024 }, { project_id: 'proj-b', user_id: 'user-b', consumer_type: 'INSTANCE' })).status).toBe(204);
    expect((await put(vm, rp, { VCPU: 5, MEMORY_MB: 1024 }, { project_id: 'proj-b', user_id: 'user-b', consumer_type: 'INSTANCE' })).status).toBe(204);
    const grown = await put(vm, rp, { VCPU: 6, MEMORY_MB: 1024 }, { project_id: 'proj-b', user_id: 'user-b', consumer_type: 'INSTANCE' });
    expect(grown.status).toBe(409);
    expect(errorOf(grown).detail).toContain(exceeded('VCPU', rp));

    const shown = await app.request('GET', `/allocations/${vm}`, { version: V });
    expect(shown.body).toMatchObject({ project_id: 'proj-b', user_id: 'user-b', allocations: { [rp]: { resources: { VCPU: 5, MEMORY_MB: 1024 } } } });
    expect((await app.request('GET', `/resource_providers/${rp}/usages`, { version: V })).body.usages).toEqual({ VCPU: 9, MEMORY_MB: 1024 });
  });

  it('PUT: a new consumer still cannot allocate the over-capacity class', async () => {
    const { rp } = await overCommitted();
    const refused = await put(randomUUID(), rp, { VCPU: 1 });
    expect(refused.status).toBe(409);
    expect(errorOf(refused).detail).toContain(exceeded('VCPU', rp));
  });

  it('POST /allocations: units may pass from one consumer to a new one, but the sum may not grow', async () => {
    const { rp, vm, other } = await overCommitted();
    const owner = OWNER;
    const newcomer = randomUUID();
    const worse = await app.request('POST', '/allocations', {
      version: V,
      body: {
        [vm]: { allocations: { [rp]: { resources: { VCPU: 6, MEMORY_MB: 512 } } }, ...owner, consumer_generation: 1 },
        [newcomer]: { allocations: { [rp]: { resources: { VCPU: 1 } } }, ...owner, consumer_generation: null },
      },
    });
    expect(worse.status).toBe(409);
    expect(errorOf(worse).detail).toContain(exceeded('VCPU', rp));

    const handedOver = await app.request('POST', '/allocations', {
      version: V,
      body: {
        [other]: { allocations: {}, ...owner, consumer_generation: 1 },
        [newcomer]: { allocations: { [rp]: { resources: { VCPU: 4 } } }, ...owner, consumer_generation: null },
      },
    });
    expect(handedOver.status).toBe(204);
    expect((await app.request('GET', `/resource_providers/${rp}/usages`, { version: V })).body.usages).toEqual({ VCPU: 10, MEMORY_MB: 512 });
  });

  it('POST /reshaper: an inventory cut under the allocations keeps them, but cannot grow them', async () => {
    const rp = randomUUID();
    expect((await app.request('POST', '/resource_providers', { version: V, body: { name: `rp-${rp}`, uuid: rp } })).status).toBe(200);
    await setInventories(rp, { VCPU: { total: 8 } });
    const vm = randomUUID();
    expect((await put(vm, rp, { VCPU: 4 })).status).toBe(204);
    const reshape = (vcpu: number) => app.request('POST', '/reshaper', {
      version: V,
      body: {
        inventories: { [rp]: { resource_provider_generation: 2, inventories: { VCPU: { total: 2 } } } },
        allocations: { [vm]: { allocations: { [rp]: { resources: { VCPU: vcpu } } }, ...OWNER, consumer_generation: 1 } },
      },
    });
    const grown = await reshape(5);
    expect(grown.status).toBe(409);
    expect(errorOf(grown).detail).toContain(exceeded('VCPU', rp));
    expect((await reshape(4)).status).toBe(204);
    expect((await app.request('GET', `/resource_providers/${rp}/inventories`, { version: V })).body.inventories.VCPU.total).toBe(2);
  });
});
