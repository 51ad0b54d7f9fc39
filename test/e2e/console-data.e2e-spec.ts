import { randomUUID } from 'node:crypto';
import { buildConsoleFixture, ConsoleFixture } from '../support/console-fixture.js';
import { startTestApp, TestApp } from '../support/test-app.js';

/** The two JSON views the console reads, over data created through the API. */
describe('console data: provider trees and capacity', () => {
  let app: TestApp;
  let cloud: ConsoleFixture;
  beforeAll(async () => {
    app = await startTestApp();
    cloud = await buildConsoleFixture((method, path, options) => app.request(method, path, options));
  }, 60_000);
  afterAll(async () => app?.close());

  it('answers the whole tree of any member, parents first, with usage, traits, aggregates and holders', async () => {
    const reply = await app.request('GET', `/ledger/resource_providers/${cloud.providers.numa1}/tree`);
    expect(reply.status).toBe(200);
    const { providers } = reply.body;
    expect(reply.body.provider_uuid).toBe(cloud.providers.numa1);
    expect(reply.body.root_provider_uuid).toBe(cloud.providers.cn1);
    expect(providers.map((p: any) => [p.name, p.depth])).toEqual([[`cn1-${cloud.suffix}`, 0], [`numa0-${cloud.suffix}`, 1], [`numa1-${cloud.suffix}`, 1]]);
    const [cn1, numa0, numa1] = providers;
    expect(cn1.inventories.MEMORY_MB).toMatchObject({ total: 16384, reserved: 512, capacity: 15872, used: 3072, free: 12800 });
    expect(cn1.inventories.DISK_GB).toMatchObject({ capacity: 200, used: 20, free: 180 });
    expect(numa1.inventories.VCPU).toMatchObject({ capacity: 12, used: 1, free: 11 });
    expect(cn1.traits).toEqual(['HW_CPU_X86_AVX2', cloud.trait].sort());
    expect(cn1.aggregates).toEqual([cloud.aggregates.a]);
    expect(cn1.consumers).toEqual([
      { consumer_uuid: cloud.consumers.vm1, resources: { MEMORY_MB: 2048, DISK_GB: 20 } },
      { consumer_uuid: cloud.consumers.vm3, resources: { MEMORY_MB: 1024 } },
    ].sort((a, b) => a.consumer_uuid.localeCompare(b.consumer_uuid)));
    expect(numa0.consumers).toEqual([{ consumer_uuid: cloud.consumers.vm1, resources: { VCPU: 4 } }]);
    // The same figures as upstream's own per-provider endpoints.
    const usages = await app.request('GET', `/resource_providers/${cloud.providers.cn1}/usages`);
    expect(usages.body.usages).toEqual({ MEMORY_MB: 3072, DISK_GB: 20 });
    expect(cn1.generation).toBe(usages.body.resource_provider_generation);
  });

  it('sums capacity per class and per aggregate, with the projects using most', async () => {
    const reply = await app.request('GET', '/ledger/capacity?top=1');
    expect(reply.status).toBe(200);
    const vcpu = reply.body.resource_classes.find((c: any) => c.resource_class === 'VCPU');
    expect(vcpu).toEqual({ resource_class: 'VCPU', total: 32, reserved: 2, capacity: 8 + 12 + 16, used: 9, free: 27, top_projects: [{ project_id: cloud.projects.a, used: 8 }] });
    expect(reply.body.aggregates.every((agg: any) => agg.resource_classes.every((c: any) => c.top_projects.length <= 1))).toBe(true);
    const all = (await app.request('GET', '/ledger/capacity')).body;
    const byAggregate = Object.fromEntries(all.aggregates.map((agg: any) => [agg.aggregate, agg.resource_classes]));
    const { a, b } = cloud.projects;
    expect(byAggregate[cloud.aggregates.b]).toEqual([
      { resource_class: 'DISK_GB', total: 100, reserved: 0, capacity: 100, used: 0, free: 100, top_projects: [] },
      { resource_class: 'MEMORY_MB', total: 8192, reserved: 0, capacity: 8192, used: 4096, free: 4096, top_projects: [{ project_id: a, used: 4096 }] },
      { resource_class: 'VCPU', total: 16, reserved: 0, capacity: 16, used: 4, free: 12, top_projects: [{ project_id: a, used: 4 }] },
    ]);
    // Aggregate a holds cn1 and cn2, not cn1's children: its projects are counted on those two only.
    expect(byAggregate[cloud.aggregates.a].map((c: any) => [c.resource_class, c.used, c.top_projects])).toEqual([
      ['DISK_GB', 20, [{ project_id: a, used: 20 }]],
      ['MEMORY_MB', 3072 + 4096, [{ project_id: a, used: 6144 }, { project_id: b, used: 1024 }]],
      ['VCPU', 4, [{ project_id: a, used: 4 }]],
    ]);
    // numa0 and numa1 are in no aggregate of their own.
    expect(all.aggregates.at(-1)).toEqual({ aggregate: null, resource_classes: [expect.objectContaining({
      resource_class: 'VCPU', capacity: 20, used: 5, top_projects: [{ project_id: a, used: 4 }, { project_id: b, used: 1 }],
    })] });
    expect(all.resource_classes.find((c: any) => c.resource_class === 'VCPU').top_projects).toEqual([{ project_id: cloud.projects.a, used: 8 }, { project_id: cloud.projects.b, used: 1 }]);
  });

  it('follows a write at once', async () => {
    const vm = randomUUID();
    const claimed = await app.request('PUT', `/allocations/${vm}`, {
      version: '1.38', body: { allocations: { [cloud.providers.cn2]: { resources: { VCPU: 3 } } }, project_id: cloud.projects.b, user_id: 'bob', consumer_generation: null, consumer_type: 'INSTANCE' },
    });
    expect(claimed.status).toBe(204);
    const tree = (await app.request('GET', `/ledger/resource_providers/${cloud.providers.cn2}/tree`)).body;
    expect(tree.providers[0].inventories.VCPU.used).toBe(7);
    const capacity = (await app.request('GET', '/ledger/capacity')).body;
    expect(capacity.resource_classes.find((c: any) => c.resource_class === 'VCPU').top_projects[1]).toEqual({ project_id: cloud.projects.b, used: 4 });
    expect((await app.request('DELETE', `/allocations/${vm}`)).status).toBe(204);
  });

  it('answers 4xx in the API\'s error shape to a bad provider or parameter', async () => {
    const missing = await app.request('GET', `/ledger/resource_providers/${randomUUID()}/tree`, { version: '1.23' });
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].code).toBe('placement.resource_provider.not_found');
    expect((await app.request('GET', '/ledger/resource_providers/not-a-uuid/tree')).status).toBe(404);
    for (const query of ['top=0', 'top=101', 'top=x', 'top=', 'colour=red']) {
      const reply = await app.request('GET', `/ledger/capacity?${query}`, { version: '1.23' });
      expect([query, reply.status]).toEqual([query, 400]);
      expect(reply.body.errors[0].status).toBe(400);
    }
    expect((await app.request('GET', `/ledger/resource_providers/${cloud.providers.cn1}/tree?depth=2`)).status).toBe(400);
  });

  it('is for admin and service: a project\'s member and reader are refused, and a token is needed', async () => {
    for (const path of ['/ledger/capacity', `/ledger/resource_providers/${cloud.providers.cn1}/tree`]) {
      expect((await app.request('GET', path, { token: 'u1:p1', headers: { 'x-roles': 'member,reader' } })).status).toBe(403);
      expect((await app.request('GET', path, { token: 'svc:service', headers: { 'x-roles': 'service' } })).status).toBe(200);
      expect((await app.request('GET', path, { token: null })).status).toBe(401);
    }
  });
});
