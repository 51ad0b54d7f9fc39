import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

describe('allocations: POST /allocations (1.13+), several consumers in one atomic claim', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  async function provider(vcpus: number): Promise<string> {
    const uuid = randomUUID();
    expect((await app.request('POST', '/resource_providers', { version: '1.20', body: { name: `rp-${uuid}`, uuid } })).status).toBe(200);
    const reply = await app.request('PUT', `/resource_providers/${uuid}/inventories`, {
      version: '1.20', body: { resource_provider_generation: 0, inventories: { VCPU: { total: vcpus } } },
    });
    expect(reply.status).toBe(200);
    return uuid;
  }
  const post = (version: string, body: unknown) => app.request('POST', '/allocations', { version, body });
  const get = async (consumer: string) => (await app.request('GET', `/allocations/${consumer}`, { version: '1.39' })).body;
  const generationOf = async (uuid: string) => (await app.request('GET', `/resource_providers/${uuid}`, { version: '1.20' })).body.generation;
  const part = (rp: string, vcpus: number, extra: object = {}) =>
    ({ allocations: vcpus > 0 ? { [rp]: { resources: { VCPU: vcpus } } } : {}, project_id: 'proj', user_id: 'user', ...extra });

  it('exists from 1.13, and is the only method on /allocations', async () => {
    expect((await post('1.12', {})).status).toBe(404);
    const listing = await app.request('GET', '/allocations', { version: '1.13' });
    expect(listing.status).toBe(405);
    expect(listing.headers.get('allow')).toBe('POST');
  });

  it('writes every consumer or none', async () => {
    const rp = await provider(4);
    const [vm1, vm2] = [randomUUID(), randomUUID()];
    const tooMuch = await post('1.13', { [vm1]: part(rp, 3), [vm2]: part(rp, 2) });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.errors[0].detail).toContain('The requested amount would exceed the capacity');
    expect([await get(vm1), await get(vm2)]).toEqual([{ allocations: {} }, { allocations: {} }]);
    expect(await generationOf(rp)).toBe(1);

    expect((await post('1.13', { [vm1]: part(rp, 2), [vm2]: part(rp, 2) })).status).toBe(204);
    expect(await generationOf(rp)).toBe(2);
    expect((await get(vm1)).allocations[rp]).toEqual({ resources: { VCPU: 2 }, generation: 2 });
  });

  it('hands a full provider\'s holding from one consumer to another (the migration swap)', async () => {
    const rp = await provider(2);
    const [instance, migration] = [randomUUID(), randomUUID()];
    expect((await post('1.28', { [instance]: part(rp, 2, { consumer_generation: null }) })).status).toBe(204);
    const swap = { [instance]: part(rp, 0, { consumer_generation: 1 }), [migration]: part(rp, 2, { consumer_generation: null }) };
    expect((await post('1.28', swap)).status).toBe(204);
    expect(await get(instance)).toEqual({ allocations: {} });
    expect(await get(migration)).toMatchObject({ consumer_generation: 1, allocations: { [rp]: { resources: { VCPU: 2 } } } });
    expect(await generationOf(rp)).toBe(3);
  });

  it('checks every consumer generation from 1.28, naming the first mismatch', async () => {
    const rp = await provider(8);
    const [vm1, vm2] = [randomUUID(), randomUUID()];
    const missing = await post('1.28', { [vm1]: part(rp, 1) });
    expect(missing.status).toBe(400);
    expect((await post('1.28', { [vm1]: part(rp, 1, { consumer_generation: null }) })).status).toBe(204);
    const stale = await post('1.28', { [vm2]: part(rp, 1, { consumer_generation: null }), [vm1]: part(rp, 1, { consumer_generation: 3 }) });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({ code: 'placement.concurrent_update' });
    expect(stale.body.errors[0].detail).toContain('consumer generation conflict - expected 1 but got 3');
    expect(await get(vm2)).toEqual({ allocations: {} });
  });

  it('words unknown classes and providers as upstream\'s POST handler', async () => {
    const rp = await provider(8);
    const vm = randomUUID();
    const unknown = await post('1.13', { [vm]: { ...part(rp, 1), allocations: { [rp]: { resources: { CUSTOM_PONY: 1 } } } } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].detail).toContain('Unable to allocate inventory No such resource class CUSTOM_PONY.');
    const ghost = randomUUID();
    const absent = await post('1.13', { [vm]: part(ghost, 1) });
    expect(absent.body.errors[0].detail).toContain(`Allocation for resource provider '${ghost}' that does not exist.`);
  });

  it('requires a consumer type from 1.38 and keeps mappings out before 1.34', async () => {
    const rp = await provider(8);
    const vm = randomUUID();
    const untyped = await post('1.38', { [vm]: part(rp, 1, { consumer_generation: null }) });
    expect(untyped.body.errors[0].detail).toContain("'consumer_type' is a required property");
    const early = await post('1.33', { [vm]: part(rp, 1, { consumer_generation: null, mappings: { '': [rp] } }) });
    expect(early.body.errors[0].detail).toContain('Additional properties are not allowed');
    expect((await post('1.38', { [vm]: part(rp, 1, { consumer_generation: null, consumer_type: 'MIGRATION' }) })).status).toBe(204);
    expect(await get(vm)).toMatchObject({ consumer_type: 'MIGRATION', project_id: 'proj', user_id: 'user' });
  });
});
