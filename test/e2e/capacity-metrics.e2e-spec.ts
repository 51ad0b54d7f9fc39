import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

type Figures = { total: number; reserved: number; capacity: number; used: number };
const FIGURES = ['total', 'reserved', 'capacity', 'used'] as const;

/** Every sample of one metric in an exposition text, keyed by its labels as `k=v,k=v` (sorted). */
function samples(text: string, name: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels = [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => `${m[1]}=${m[2]}`).sort().join(',');
    found.set(labels, Number(match[3]));
  }
  return found;
}

/** The capacity figures by label key, from a scrape. */
function scraped(text: string): Map<string, Figures> {
  const byKey = new Map<string, Figures>();
  for (const figure of FIGURES) {
    for (const [key, value] of samples(text, `placement_inventory_${figure}`)) {
      const entry = byKey.get(key) ?? { total: 0, reserved: 0, capacity: 0, used: 0 };
      entry[figure] = value;
      byKey.set(key, entry);
    }
  }
  return byKey;
}

describe('capacity metrics: /metrics agrees with the inventories and usages the API reports', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp({ PLACEMENT_METRICS_PROJECT_USAGE: 'true' }); });
  afterAll(async () => app.close());

  const scrape = async () => (await app.request('GET', '/metrics', { token: null })).text;
  const ok = (reply: { status: number; text: string }, status = 200) => expect({ status: reply.status, text: reply.text }).toMatchObject({ status });

  async function provider(inventories: object, parent?: string): Promise<string> {
    const uuid = randomUUID();
    ok(await app.request('POST', '/resource_providers', { version: '1.20', body: { name: `rp-${uuid}`, uuid, parent_provider_uuid: parent } }));
    ok(await app.request('PUT', `/resource_providers/${uuid}/inventories`, { version: '1.20', body: { resource_provider_generation: 0, inventories } }));
    return uuid;
  }
  const claim = async (consumer: string, project: string, allocations: Record<string, object>, generation: number | null = null) =>
    ok(await app.request('PUT', `/allocations/${consumer}`, {
      version: '1.28',
      body: {
        allocations: Object.fromEntries(Object.entries(allocations).map(([rp, resources]) => [rp, { resources }])),
        project_id: project, user_id: 'user', consumer_generation: generation,
      },
    }), 204);

  /** The same figures, summed from GET /resource_providers/{uuid}/inventories and /usages of every provider. */
  async function fromTheApi(): Promise<Map<string, Figures>> {
    const sums = new Map<string, Figures>();
    const { resource_providers: providers } = (await app.request('GET', '/resource_providers', { version: '1.20' })).body;
    for (const { uuid } of providers) {
      const { inventories } = (await app.request('GET', `/resource_providers/${uuid}/inventories`)).body;
      const { usages } = (await app.request('GET', `/resource_providers/${uuid}/usages`)).body;
      for (const [rc, inv] of Object.entries<any>(inventories)) {
        const entry = sums.get(`resource_class=${rc}`) ?? { total: 0, reserved: 0, capacity: 0, used: 0 };
        entry.total += inv.total;
        entry.reserved += inv.reserved;
        entry.capacity += Math.trunc((inv.total - inv.reserved) * inv.allocation_ratio);
        entry.used += usages[rc] ?? 0;
        sums.set(`resource_class=${rc}`, entry);
      }
    }
    return sums;
  }

  /** placement_project_usage for one project, as GET /usages?project_id= reports it. */
  async function projectFromTheApi(project: string): Promise<Map<string, number>> {
    const { usages } = (await app.request('GET', `/usages?project_id=${project}`, { version: '1.9' })).body;
    return new Map(Object.entries<number>(usages).map(([rc, used]) => [`project_id=${project},resource_class=${rc}`, used]));
  }
  const projectScraped = (text: string, project: string) =>
    new Map([...samples(text, 'placement_project_usage')].filter(([key]) => key.startsWith(`project_id=${project},`)));

  const projectA = randomUUID();
  const projectB = randomUUID();
  let compute: string;
  let storage: string;
  let nic: string;

  beforeAll(async () => {
    ok(await app.request('PUT', '/resource_classes/CUSTOM_METRICS_BW', { version: '1.7' }), 201);
    compute = await provider({ VCPU: { total: 16, reserved: 2, allocation_ratio: 2.5 }, MEMORY_MB: { total: 4096, reserved: 512 } });
    storage = await provider({ DISK_GB: { total: 500, allocation_ratio: 1.3 }, VCPU: { total: 3, allocation_ratio: 1.5 } });
    nic = await provider({ CUSTOM_METRICS_BW: { total: 1000 } }, compute);
    await claim(randomUUID(), projectA, { [compute]: { VCPU: 4, MEMORY_MB: 1024 }, [nic]: { CUSTOM_METRICS_BW: 100 } });
    await claim(randomUUID(), projectB, { [storage]: { DISK_GB: 100, VCPU: 1 } });
    await claim(randomUUID(), projectA, { [storage]: { VCPU: 2 } });
  });

  it('exports total, reserved, capacity and used per class, equal to the sums of the GETs', async () => {
    const text = await scrape();
    expect(scraped(text)).toEqual(await fromTheApi());
    expect(scraped(text).get('resource_class=VCPU')).toEqual({ total: 19, reserved: 2, capacity: 35 + 4, used: 7 });
  });

  it('exports each project usage per class, equal to GET /usages', async () => {
    const text = await scrape();
    expect(projectScraped(text, projectA)).toEqual(await projectFromTheApi(projectA));
    expect(projectScraped(text, projectB)).toEqual(await projectFromTheApi(projectB));
    expect(projectScraped(text, projectA).get(`project_id=${projectA},resource_class=VCPU`)).toBe(6);
  });

  it('follows a claim, an inventory change and a deleted provider on the next scrape', async () => {
    await claim(randomUUID(), projectB, { [compute]: { VCPU: 10 } });
    ok(await app.request('PUT', `/resource_providers/${storage}/inventories/DISK_GB`, {
      version: '1.20', body: { resource_provider_generation: 3, total: 800, reserved: 50, allocation_ratio: 1.3 },
    }));
    const lonely = await provider({ CUSTOM_METRICS_BW: { total: 5 } });
    ok(await app.request('DELETE', `/resource_providers/${lonely}`), 204);

    const text = await scrape();
    expect(scraped(text)).toEqual(await fromTheApi());
    expect(scraped(text).get('resource_class=VCPU')?.used).toBe(17);
    expect(scraped(text).get('resource_class=DISK_GB')).toEqual({ total: 800, reserved: 50, capacity: 975, used: 100 });
    expect(scraped(text).get('resource_class=CUSTOM_METRICS_BW')?.total).toBe(1000);
    expect(projectScraped(text, projectB)).toEqual(await projectFromTheApi(projectB));
  });

  it('drops the series of a class no provider has any more', async () => {
    const lone = await provider({ CUSTOM_METRICS_BW: { total: 1 }, SRIOV_NET_VF: { total: 4 } });
    expect(scraped(await scrape()).get('resource_class=SRIOV_NET_VF')?.total).toBe(4);
    ok(await app.request('DELETE', `/resource_providers/${lone}`), 204);
    const text = await scrape();
    expect(scraped(text).has('resource_class=SRIOV_NET_VF')).toBe(false);
    expect(scraped(text)).toEqual(await fromTheApi());
  });
});

describe('capacity metrics by aggregate (PLACEMENT_METRICS_BY_AGGREGATE=true)', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp({ PLACEMENT_METRICS_BY_AGGREGATE: 'true' }); });
  afterAll(async () => app.close());

  const agg1 = randomUUID();
  const agg2 = randomUUID();

  async function provider(total: number, aggregates: string[]): Promise<string> {
    const uuid = randomUUID();
    await app.request('POST', '/resource_providers', { version: '1.20', body: { name: `rp-${uuid}`, uuid } });
    await app.request('PUT', `/resource_providers/${uuid}/inventories`, { version: '1.20', body: { resource_provider_generation: 0, inventories: { VCPU: { total } } } });
    if (aggregates.length > 0) {
      await app.request('PUT', `/resource_providers/${uuid}/aggregates`, { version: '1.19', body: { aggregates, resource_provider_generation: 1 } });
    }
    return uuid;
  }

  /** VCPU figures of the members of an aggregate (GET /resource_providers?member_of=), summed. */
  async function members(aggregate: string) {
    const { resource_providers: providers } = (await app.request('GET', `/resource_providers?member_of=${aggregate}`, { version: '1.20' })).body;
    let total = 0;
    let used = 0;
    for (const { uuid } of providers) {
      total += (await app.request('GET', `/resource_providers/${uuid}/inventories`)).body.inventories.VCPU.total;
      used += (await app.request('GET', `/resource_providers/${uuid}/usages`)).body.usages.VCPU;
    }
    return { total, used };
  }

  it('labels each class by aggregate, a provider counting in each of its aggregates and in "" when in none', async () => {
    const both = await provider(8, [agg1, agg2]);
    await provider(4, [agg1]);
    await provider(2, []);
    const vm = randomUUID();
    expect((await app.request('PUT', `/allocations/${vm}`, {
      version: '1.28', body: { allocations: { [both]: { resources: { VCPU: 3 } } }, project_id: 'p', user_id: 'u', consumer_generation: null },
    })).status).toBe(204);

    const text = (await app.request('GET', '/metrics', { token: null })).text;
    const totals = samples(text, 'placement_inventory_total');
    const used = samples(text, 'placement_inventory_used');
    for (const aggregate of [agg1, agg2]) {
      const expected = await members(aggregate);
      expect(totals.get(`aggregate=${aggregate},resource_class=VCPU`)).toBe(expected.total);
      expect(used.get(`aggregate=${aggregate},resource_class=VCPU`)).toBe(expected.used);
    }
    expect(totals.get(`aggregate=${agg1},resource_class=VCPU`)).toBe(12);
    expect(totals.get('aggregate=,resource_class=VCPU')).toBe(2);
    expect(totals.has('resource_class=VCPU')).toBe(false);
    // Without PLACEMENT_METRICS_PROJECT_USAGE the scrape, which needs no token, names no project.
    expect(text).not.toContain('placement_project_usage');
    expect(text).not.toMatch(/project_id=/);
  });
});
