import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

/**
 * The order upstream lists things in, where a client can see it (JSON key order). Upstream has no
 * ORDER BY; these are the orders its rows come back in, checked against upstream 8.0.0 on
 * PostgreSQL: a consumer's allocations as written, a provider's consumers as last written, and
 * classes in resource class id order (standard classes first, then custom ones as created).
 */
describe('listing order', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  const V = '1.39';
  const OWNER = { project_id: 'proj', user_id: 'user', consumer_type: 'INSTANCE' };
  /** A uuid starting with `lead`, so the uuid order of a test's providers is known. */
  const uuidFrom = (lead: string) => `${lead.repeat(8)}${randomUUID().slice(8)}`;
  const generationOf = async (uuid: string) => (await app.request('GET', `/resource_providers/${uuid}`, { version: V })).body.generation;
  async function provider(lead: string, inventories: object = { VCPU: { total: 64 }, MEMORY_MB: { total: 65536 }, DISK_GB: { total: 1000 } }) {
    const uuid = uuidFrom(lead);
    expect((await app.request('POST', '/resource_providers', { version: V, body: { uuid, name: `rp-${uuid}` } })).status).toBe(200);
    const reply = await app.request('PUT', `/resource_providers/${uuid}/inventories`, { version: V, body: { resource_provider_generation: 0, inventories } });
    expect(reply.status).toBe(200);
    return uuid;
  }
  /** The reply's text: JSON.parse keeps key order, so Object.keys shows what the client sees. */
  const keysOf = async (path: string, pick: (body: any) => object) => Object.keys(pick((await app.request('GET', path, { version: V })).body));
  const classesOf = async (consumer: string) => {
    const { allocations } = (await app.request('GET', `/allocations/${consumer}`, { version: V })).body;
    return Object.entries(allocations).map(([uuid, a]: [string, any]) => `${uuid.slice(0, 1)}:${Object.keys(a.resources).join(',')}`);
  };
  const put = async (consumer: string, allocations: object, generation: number | null) => {
    const reply = await app.request('PUT', `/allocations/${consumer}`, { version: V, body: { allocations, ...OWNER, consumer_generation: generation } });
    expect(reply.status).toBe(204);
  };

  it('GET /allocations/{consumer}: providers and classes in the order the last write listed them', async () => {
    const [c, a, b] = [await provider('c'), await provider('a'), await provider('b')];
    const vm = randomUUID();
    await put(vm, { [c]: { resources: { MEMORY_MB: 8, VCPU: 1 } }, [a]: { resources: { VCPU: 1, DISK_GB: 5 } }, [b]: { resources: { DISK_GB: 1 } } }, null);
    expect(await classesOf(vm)).toEqual(['c:MEMORY_MB,VCPU', 'a:VCPU,DISK_GB', 'b:DISK_GB']);
    await put(vm, { [b]: { resources: { DISK_GB: 1 } }, [c]: { resources: { VCPU: 1, MEMORY_MB: 8 } }, [a]: { resources: { VCPU: 1 } } }, 1);
    expect(await classesOf(vm)).toEqual(['b:DISK_GB', 'c:VCPU,MEMORY_MB', 'a:VCPU']);
  });

  it('POST /allocations and POST /reshaper keep the order they were given too', async () => {
    const [c, a] = [await provider('c'), await provider('a')];
    const vm = randomUUID();
    const batch = await app.request('POST', '/allocations', {
      version: V, body: { [vm]: { allocations: { [c]: { resources: { DISK_GB: 2, VCPU: 1 } }, [a]: { resources: { VCPU: 2 } } }, ...OWNER, consumer_generation: null } },
    });
    expect(batch.status).toBe(204);
    expect(await classesOf(vm)).toEqual(['c:DISK_GB,VCPU', 'a:VCPU']);
    const reshape = await app.request('POST', '/reshaper', {
      version: V,
      body: {
        inventories: { [a]: { resource_provider_generation: await generationOf(a), inventories: { VCPU: { total: 64 }, MEMORY_MB: { total: 65536 } } } },
        allocations: { [vm]: { allocations: { [a]: { resources: { MEMORY_MB: 4, VCPU: 2 } }, [c]: { resources: { VCPU: 1 } } }, ...OWNER, consumer_generation: 1 } },
      },
    });
    expect(reshape.status).toBe(204);
    expect(await classesOf(vm)).toEqual(['a:MEMORY_MB,VCPU', 'c:VCPU']);
  });

  it('GET /resource_providers/{uuid}/allocations: consumers in the order they were last written', async () => {
    const rp = await provider('d');
    const [vm3, vm2] = [uuidFrom('3'), uuidFrom('2')];
    await put(vm3, { [rp]: { resources: { VCPU: 1 } } }, null);
    await put(vm2, { [rp]: { resources: { VCPU: 2, MEMORY_MB: 3 } } }, null);
    const consumers = () => keysOf(`/resource_providers/${rp}/allocations`, (body) => body.allocations);
    expect(await consumers()).toEqual([vm3, vm2]);
    await put(vm3, { [rp]: { resources: { VCPU: 3 } } }, 1);
    expect(await consumers()).toEqual([vm2, vm3]);
  });

  it('inventories, usages and provider summaries: classes in resource class id order, custom ones as created', async () => {
    for (const name of ['CUSTOM_ZED', 'CUSTOM_ALPHA']) expect((await app.request('PUT', `/resource_classes/${name}`, { version: V })).status).toBe(201);
    const rp = await provider('e', { CUSTOM_ALPHA: { total: 1 }, DISK_GB: { total: 10 }, VCPU: { total: 4 }, CUSTOM_ZED: { total: 1 }, MEMORY_MB: { total: 64 } });
    const inIdOrder = ['VCPU', 'MEMORY_MB', 'DISK_GB', 'CUSTOM_ZED', 'CUSTOM_ALPHA'];
    expect(await keysOf(`/resource_providers/${rp}/inventories`, (body) => body.inventories)).toEqual(inIdOrder);
    expect(await keysOf(`/resource_providers/${rp}/usages`, (body) => body.usages)).toEqual(inIdOrder);
    const summaries = await keysOf(`/allocation_candidates?resources=DISK_GB:1,VCPU:1&in_tree=${rp}`, (body) => body.provider_summaries[rp].resources);
    expect(summaries.slice(0, 3)).toEqual(['VCPU', 'MEMORY_MB', 'DISK_GB']);
    expect([...summaries].sort()).toEqual([...inIdOrder].sort());
    const project = randomUUID();
    const claim = await app.request('PUT', `/allocations/${randomUUID()}`, {
      version: V,
      body: { allocations: { [rp]: { resources: { CUSTOM_ALPHA: 1, DISK_GB: 1, CUSTOM_ZED: 1, VCPU: 1 } } }, ...OWNER, project_id: project, consumer_generation: null },
    });
    expect(claim.status).toBe(204);
    expect(await keysOf(`/usages?project_id=${project}`, (body) => body.usages.INSTANCE)).toEqual(['consumer_count', 'VCPU', 'DISK_GB', 'CUSTOM_ZED', 'CUSTOM_ALPHA']);
  });
});
