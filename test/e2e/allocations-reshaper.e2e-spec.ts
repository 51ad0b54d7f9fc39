import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

describe('allocations: POST /reshaper (1.30+), inventories and allocations move together', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  const reshape = (version: string, body: unknown) => app.request('POST', '/reshaper', { version, body });
  const show = async (uuid: string) => (await app.request('GET', `/resource_providers/${uuid}/usages`)).body;

  /** A compute node with VCPU and DISK_GB, an empty child, and one consumer holding both (cn at generation 2). */
  async function tree() {
    const [cn, numa, vm] = [randomUUID(), randomUUID(), randomUUID()];
    expect((await app.request('POST', '/resource_providers', { version: '1.20', body: { name: `cn-${cn}`, uuid: cn } })).status).toBe(200);
    const child = { name: `numa-${numa}`, uuid: numa, parent_provider_uuid: cn };
    expect((await app.request('POST', '/resource_providers', { version: '1.20', body: child })).status).toBe(200);
    const inventories = { VCPU: { total: 8 }, DISK_GB: { total: 100 } };
    expect((await app.request('PUT', `/resource_providers/${cn}/inventories`, {
      version: '1.20', body: { resource_provider_generation: 0, inventories },
    })).status).toBe(200);
    const claim = { allocations: { [cn]: { resources: { VCPU: 2, DISK_GB: 10 } } }, project_id: 'p', user_id: 'u', consumer_generation: null };
    expect((await app.request('PUT', `/allocations/${vm}`, { version: '1.30', body: claim })).status).toBe(204);
    return { cn, numa, vm };
  }

  it('moves VCPU inventory and its allocation to a child, three generations on each provider', async () => {
    const { cn, numa, vm } = await tree();
    const reply = await reshape('1.30', {
      inventories: {
        [cn]: { resource_provider_generation: 2, inventories: { DISK_GB: { total: 100 } } },
        [numa]: { resource_provider_generation: 0, inventories: { VCPU: { total: 8 } } },
      },
      allocations: {
        [vm]: {
          allocations: { [cn]: { resources: { DISK_GB: 10 } }, [numa]: { resources: { VCPU: 2 } } },
          project_id: 'p', user_id: 'u', consumer_generation: 1,
        },
      },
    });
    expect(reply.status).toBe(204);
    expect(await show(cn)).toEqual({ resource_provider_generation: 5, usages: { DISK_GB: 10 } });
    expect(await show(numa)).toEqual({ resource_provider_generation: 3, usages: { VCPU: 2 } });
    const inventories = (await app.request('GET', `/resource_providers/${cn}/inventories`)).body.inventories;
    expect(Object.keys(inventories)).toEqual(['DISK_GB']);
    expect((await app.request('GET', `/allocations/${vm}`, { version: '1.28' })).body.consumer_generation).toBe(2);
  });

  it('refuses to drop allocated inventory and changes nothing', async () => {
    const { cn } = await tree();
    const reply = await reshape('1.30', {
      inventories: { [cn]: { resource_provider_generation: 2, inventories: { VCPU: { total: 8 } } } },
      allocations: {},
    });
    expect(reply.status).toBe(409);
    expect(reply.body.errors[0]).toMatchObject({ code: 'placement.inventory.inuse' });
    expect(reply.body.errors[0].detail).toContain(`update conflict: Inventory for 'DISK_GB' on resource provider '${cn}' in use.`);
    expect(await show(cn)).toEqual({ resource_provider_generation: 2, usages: { VCPU: 2, DISK_GB: 10 } });
  });

  it('checks provider generations, unknown providers and classes, and the microversion', async () => {
    const { cn } = await tree();
    const stale = await reshape('1.30', { inventories: { [cn]: { resource_provider_generation: 1, inventories: {} } }, allocations: {} });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].detail).toContain(`resource provider generation conflict for provider ${cn}: actual: 2, given: 1`);
    const ghost = randomUUID();
    const missing = await reshape('1.30', { inventories: { [ghost]: { resource_provider_generation: 0, inventories: {} } }, allocations: {} });
    expect(missing.body.errors[0]).toMatchObject({ status: 400, code: 'placement.resource_provider.not_found' });
    const steel = await reshape('1.30', {
      inventories: { [cn]: { resource_provider_generation: 2, inventories: { DISK_OF_STEEL: { total: 1 } } } }, allocations: {},
    });
    expect(steel.body.errors[0].detail).toContain('malformed reshaper data: No such resource class DISK_OF_STEEL.');
    expect((await reshape('1.29', { inventories: {}, allocations: {} })).status).toBe(404);
    const typed = await reshape('1.38', {
      inventories: { [cn]: { resource_provider_generation: 2, inventories: { VCPU: { total: 8 }, DISK_GB: { total: 100 } } } },
      allocations: { [randomUUID()]: { allocations: {}, project_id: 'p', user_id: 'u', consumer_generation: null } },
    });
    expect(typed.body.errors[0].detail).toContain("'consumer_type' is a required property");
  });
});
