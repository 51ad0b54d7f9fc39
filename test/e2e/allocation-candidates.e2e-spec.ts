import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

const AGG = randomUUID();
const OTHER_AGG = randomUUID();
const ids = { cn1: randomUUID(), numa0: randomUUID(), numa1: randomUUID(), cn2: randomUUID(), ss: randomUUID() };

describe('GET /allocation_candidates over HTTP', () => {
  let app: TestApp;
  const get = (query: string, version = '1.39') => app.request('GET', `/allocation_candidates?${query}`, { version });
  const ok = async (query: string, version = '1.39') => {
    const reply = await get(query, version);
    expect(reply.status).toBe(200);
    return reply.body;
  };
  /** Each candidate as sorted 'provider:CLASS=n' entries (dict form). */
  const shapes = (body: any) => body.allocation_requests.map((r: any) => Object.entries(r.allocations)
    .flatMap(([uuid, a]: [string, any]) => Object.entries(a.resources).map(([rc, n]) => `${name(uuid)}:${rc}=${n}`)).sort().join(' ')).sort();
  const name = (uuid: string) => Object.entries(ids).find(([, u]) => u === uuid)?.[0] ?? uuid;

  async function provider(uuid: string, label: string, parent?: string) {
    const reply = await app.request('POST', '/resource_providers', { version: '1.20', body: { uuid, name: label, ...(parent ? { parent_provider_uuid: parent } : {}) } });
    expect(reply.status).toBe(200);
  }
  async function generation(uuid: string): Promise<number> {
    return (await app.request('GET', `/resource_providers/${uuid}`, { version: '1.20' })).body.generation;
  }
  async function inventories(uuid: string, inventories: object) {
    const reply = await app.request('PUT', `/resource_providers/${uuid}/inventories`, { body: { resource_provider_generation: await generation(uuid), inventories } });
    expect(reply.status).toBe(200);
  }
  async function aggregates(uuid: string, list: string[]) {
    const reply = await app.request('PUT', `/resource_providers/${uuid}/aggregates`, { version: '1.19', body: { resource_provider_generation: await generation(uuid), aggregates: list } });
    expect(reply.status).toBe(200);
  }
  async function traits(uuid: string, list: string[]) {
    for (const trait of list.filter((t) => t.startsWith('CUSTOM_'))) await app.request('PUT', `/traits/${trait}`, { version: '1.6' });
    const reply = await app.request('PUT', `/resource_providers/${uuid}/traits`, { version: '1.6', body: { resource_provider_generation: await generation(uuid), traits: list } });
    expect(reply.status).toBe(200);
  }

  beforeAll(async () => {
    app = await startTestApp();
    await provider(ids.cn1, 'cn1');
    await provider(ids.numa0, 'numa0', ids.cn1);
    await provider(ids.numa1, 'numa1', ids.cn1);
    await provider(ids.cn2, 'cn2');
    await provider(ids.ss, 'ss');
    await inventories(ids.cn1, { VCPU: { total: 8 }, MEMORY_MB: { total: 4096 } });
    await inventories(ids.numa0, { SRIOV_NET_VF: { total: 4 } });
    await inventories(ids.numa1, { SRIOV_NET_VF: { total: 4 } });
    await inventories(ids.cn2, { VCPU: { total: 8, max_unit: 4 }, DISK_GB: { total: 100 } });
    await inventories(ids.ss, { DISK_GB: { total: 1000 } });
    await traits(ids.cn1, ['HW_CPU_X86_AVX2', 'CUSTOM_GOLD']);
    await traits(ids.numa1, ['CUSTOM_PHYSNET1']);
    await traits(ids.ss, ['MISC_SHARES_VIA_AGGREGATE']);
    for (const uuid of [ids.cn1, ids.cn2, ids.ss]) await aggregates(uuid, [AGG]);
    await aggregates(ids.cn2, [AGG, OTHER_AGG]);
  }, 60_000);
  afterAll(async () => app.close());

  it('exists from 1.10, in the list form before 1.12, with cache headers from 1.15', async () => {
    expect((await get('resources=VCPU:1', '1.9')).status).toBe(404);
    const old = await get('resources=VCPU:1', '1.10');
    expect(old.status).toBe(200);
    expect(old.headers.get('content-type')).toContain('application/json');
    expect(old.headers.get('cache-control')).toBeNull();
    expect(old.body.allocation_requests.map((r: any) => r.allocations[0].resource_provider.uuid).map(name).sort()).toEqual(['cn1', 'cn2']);
    expect(old.body.provider_summaries[ids.cn1]).toEqual({ resources: { VCPU: { capacity: 8, used: 0 } } });
    const cached = await get('resources=VCPU:1', '1.15');
    expect(cached.headers.get('cache-control')).toBe('no-cache');
    expect(cached.headers.get('last-modified')).toMatch(/GMT$/);
  });

  it('combines a tree with a sharing provider of its aggregate, with summaries of whole trees', async () => {
    const body = await ok('resources=VCPU:1,DISK_GB:10,SRIOV_NET_VF:2');
    expect(shapes(body)).toEqual([
      'cn1:VCPU=1 numa0:SRIOV_NET_VF=2 ss:DISK_GB=10',
      'cn1:VCPU=1 numa1:SRIOV_NET_VF=2 ss:DISK_GB=10',
    ]);
    expect(Object.keys(body.provider_summaries).map(name).sort()).toEqual(['cn1', 'numa0', 'numa1', 'ss']);
    expect(body.provider_summaries[ids.numa1]).toMatchObject({ traits: ['CUSTOM_PHYSNET1'], parent_provider_uuid: ids.cn1, root_provider_uuid: ids.cn1 });
    expect(shapes(await ok('resources=VCPU:1,DISK_GB:10,SRIOV_NET_VF:2', '1.28'))).toEqual([]);
  });

  it('applies limit, required and forbidden traits, member_of and in_tree', async () => {
    expect((await ok('resources=VCPU:1&limit=1')).allocation_requests).toHaveLength(1);
    expect(shapes(await ok('resources=VCPU:1&required=CUSTOM_GOLD'))).toEqual(['cn1:VCPU=1']);
    expect(shapes(await ok('resources=VCPU:1&required=!CUSTOM_GOLD'))).toEqual(['cn2:VCPU=1']);
    expect(shapes(await ok('resources=VCPU:1&required=in:CUSTOM_GOLD,HW_CPU_X86_SSE'))).toEqual(['cn1:VCPU=1']);
    expect(shapes(await ok(`resources=VCPU:1&member_of=${OTHER_AGG}`))).toEqual(['cn2:VCPU=1']);
    expect(shapes(await ok(`resources=VCPU:1&member_of=!${OTHER_AGG}`))).toEqual(['cn1:VCPU=1']);
    expect(shapes(await ok(`resources=VCPU:1,DISK_GB:10&in_tree=${ids.cn2}`))).toEqual(['cn2:DISK_GB=10 cn2:VCPU=1']);
    expect(shapes(await ok('resources=VCPU:1&root_required=!CUSTOM_GOLD'))).toEqual(['cn2:VCPU=1']);
  });

  it('honours granular groups, group_policy, same_subtree and mappings', async () => {
    const isolate = await ok('resources_A=SRIOV_NET_VF:1&resources_B=SRIOV_NET_VF:1&group_policy=isolate');
    expect(shapes(isolate)).toEqual(['numa0:SRIOV_NET_VF=1 numa1:SRIOV_NET_VF=1', 'numa0:SRIOV_NET_VF=1 numa1:SRIOV_NET_VF=1']);
    const none = await ok('resources_A=SRIOV_NET_VF:1&resources_B=SRIOV_NET_VF:1&group_policy=none');
    expect(none.allocation_requests).toHaveLength(4);
    const subtree = await ok('resources_C=VCPU:1&resources_N=SRIOV_NET_VF:1&required_N=CUSTOM_PHYSNET1&same_subtree=_C,_N&group_policy=none');
    expect(subtree.allocation_requests.map((r: any) => r.mappings)).toEqual([{ _C: [ids.cn1], _N: [ids.numa1] }]);
    const resourceless = await ok('resources_N=SRIOV_NET_VF:1&required_R=CUSTOM_GOLD&same_subtree=_N,_R&group_policy=none');
    expect(resourceless.allocation_requests.map((r: any) => r.mappings._R)).toEqual([[ids.cn1], [ids.cn1]]);
    expect((await get('resources_A=VCPU:1&resources_B=VCPU:1')).body.errors[0].detail).toContain('"group_policy" parameter is required');
  });

  it('refuses bad queries with upstream codes and changes nothing', async () => {
    const unknownClass = await get('resources=MCPU:1');
    expect(unknownClass.status).toBe(400);
    expect(unknownClass.body.errors[0].detail).toContain('No such resource class MCPU');
    expect((await get('resources=VCPU:1&required=CUSTOM_NOPE')).body.errors[0].detail).toContain('No such trait(s): CUSTOM_NOPE.');
    expect((await get('resources=VCPU:1&root_required=A&root_required=B')).body.errors[0].code).toBe('placement.query.duplicate_key');
    expect((await get('required_X=CUSTOM_GOLD')).body.errors[0].code).toBe('placement.query.missing_value');
    expect((await get('resources=VCPU:1&same_subtree=_Z')).body.errors[0].code).toBe('placement.query.bad_value');
    expect((await get('resources=VCPU:1&limit=0')).status).toBe(400);
    expect(shapes(await ok('resources=VCPU:1'))).toEqual(['cn1:VCPU=1', 'cn2:VCPU=1']);
  });

  it('returns requests that PUT /allocations takes unchanged, and sees the claim in the very next answer', async () => {
    const body = await ok('resources=VCPU:4&in_tree=' + ids.cn2);
    const request = body.allocation_requests[0];
    const claim = await app.request('PUT', `/allocations/${randomUUID()}`, {
      version: '1.39',
      body: { ...request, project_id: randomUUID(), user_id: randomUUID(), consumer_generation: null, consumer_type: 'INSTANCE' },
    });
    expect(claim.status).toBe(204);
    const after = await ok('resources=VCPU:4');
    expect(after.provider_summaries[ids.cn2].resources.VCPU).toEqual({ capacity: 8, used: 4 });
    const listForm = (await ok('resources=VCPU:4', '1.11')).allocation_requests.find((r: any) => r.allocations[0].resource_provider.uuid === ids.cn1);
    const old = await app.request('PUT', `/allocations/${randomUUID()}`, { version: '1.11', body: { ...listForm, project_id: randomUUID(), user_id: randomUUID() } });
    expect(old.status).toBe(204);
    // Each compute node has 4 of its 8 left now; cn2 never gives more than 4 at once anyway.
    expect(shapes(await ok('resources=VCPU:5'))).toEqual([]);
    const summaries = (await ok('resources=VCPU:4')).provider_summaries;
    expect([summaries[ids.cn1].resources.VCPU.used, summaries[ids.cn2].resources.VCPU.used]).toEqual([4, 4]);
  });
});
