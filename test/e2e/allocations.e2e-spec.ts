import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

const HTTP_DATE = /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const INCOMPLETE = '00000000-0000-0000-0000-000000000000';

describe('allocations: PUT, GET and DELETE /allocations/{consumer}', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  /** A provider with VCPU 8 and DISK_GB 100 (min 10, step 10, max 50); generation 1. */
  async function provider(inventories: object = {
    VCPU: { total: 8 }, DISK_GB: { total: 100, min_unit: 10, step_size: 10, max_unit: 50 },
  }): Promise<string> {
    const uuid = randomUUID();
    expect((await app.request('POST', '/resource_providers', { version: '1.20', body: { name: `rp-${uuid}`, uuid } })).status).toBe(200);
    const reply = await app.request('PUT', `/resource_providers/${uuid}/inventories`, {
      version: '1.20', body: { resource_provider_generation: 0, inventories },
    });
    expect(reply.status).toBe(200);
    return uuid;
  }
  const generationOf = async (uuid: string) => (await app.request('GET', `/resource_providers/${uuid}`, { version: '1.20' })).body.generation;
  const usagesOf = async (uuid: string) => (await app.request('GET', `/resource_providers/${uuid}/usages`)).body.usages;
  const get = async (consumer: string, version = '1.39') => (await app.request('GET', `/allocations/${consumer}`, { version })).body;
  const put = (consumer: string, version: string, body: unknown) => app.request('PUT', `/allocations/${consumer}`, { version, body });
  const dict = (rp: string, resources: object, extra: object = {}) =>
    ({ allocations: { [rp]: { resources } }, project_id: 'proj', user_id: 'user', ...extra });
  const errorOf = (reply: { body: any }) => reply.body.errors[0];

  describe('the list form (1.0-1.11)', () => {
    it('claims, shows and replaces; owners are the incomplete ids until 1.8', async () => {
      const rp = await provider();
      const vm = randomUUID();
      const body = { allocations: [{ resource_provider: { uuid: rp }, resources: { VCPU: 2, DISK_GB: 20 } }] };
      const reply = await put(vm, '1.0', body);
      expect(reply.status).toBe(204);
      expect(reply.text).toBe('');
      expect(reply.headers.get('last-modified')).toBeNull();
      expect(await get(vm, '1.0')).toEqual({ allocations: { [rp]: { resources: { VCPU: 2, DISK_GB: 20 }, generation: 2 } } });
      expect(await get(vm, '1.12')).toMatchObject({ project_id: INCOMPLETE, user_id: INCOMPLETE });
      expect(await usagesOf(rp)).toEqual({ VCPU: 2, DISK_GB: 20 });

      expect((await put(vm, '1.8', body)).status).toBe(400);
      expect((await put(vm, '1.8', { ...body, project_id: 'p1', user_id: 'u1' })).status).toBe(204);
      expect(await get(vm, '1.12')).toMatchObject({ project_id: 'p1', user_id: 'u1', allocations: { [rp]: { generation: 3 } } });
    });

    it('refuses the dict form before 1.12 and the list form from 1.12', async () => {
      const rp = await provider();
      const listed = await put(randomUUID(), '1.12', {
        allocations: [{ resource_provider: { uuid: rp }, resources: { VCPU: 1 } }], project_id: 'p', user_id: 'u',
      });
      expect(listed.status).toBe(400);
      expect(errorOf(listed).detail).toContain('JSON does not validate');
      expect((await put(randomUUID(), '1.11', dict(rp, { VCPU: 1 }))).status).toBe(400);
    });
  });

  describe('claim rules', () => {
    it('refuses over capacity, off-step amounts, missing inventory, unknown classes and providers', async () => {
      const rp = await provider();
      const vm = randomUUID();
      const refused = async (resources: object, status: number, detail: string, target = rp) => {
        const reply = await put(vm, '1.12', dict(target, resources));
        expect(reply.status).toBe(status);
        expect(errorOf(reply).detail).toContain(detail);
      };
      await refused({ VCPU: 9 }, 409,
        `Unable to allocate inventory: Unable to create allocation for 'VCPU' on resource provider '${rp}'. The requested amount would exceed the capacity.`);
      await refused({ DISK_GB: 15 }, 409, 'The requested amount would violate inventory constraints.');
      await refused({ DISK_GB: 60 }, 409, 'The requested amount would violate inventory constraints.');
      await refused({ MEMORY_MB: 1, VCPU: 1 }, 409, `Inventory for 'MEMORY_MB' on resource provider '${rp}' invalid.`);
      await refused({ CUSTOM_NOPE: 1 }, 400, `Unable to allocate inventory for consumer ${vm}: No such resource class CUSTOM_NOPE.`);
      const ghost = randomUUID();
      await refused({ VCPU: 1 }, 400, `Allocation for resource provider '${ghost}' that does not exist.`, ghost);
      expect(await get(vm)).toEqual({ allocations: {} });
      expect(await generationOf(rp)).toBe(1);
    });

    it('lets a consumer grow into its own holding, and counts other consumers', async () => {
      const rp = await provider();
      const [vm1, vm2] = [randomUUID(), randomUUID()];
      expect((await put(vm1, '1.12', dict(rp, { VCPU: 6 }))).status).toBe(204);
      expect((await put(vm1, '1.12', dict(rp, { VCPU: 8 }))).status).toBe(204);
      expect((await put(vm2, '1.12', dict(rp, { VCPU: 1 }))).status).toBe(409);
      expect((await put(vm1, '1.12', dict(rp, { VCPU: 5 }))).status).toBe(204);
      expect((await put(vm2, '1.12', dict(rp, { VCPU: 3 }))).status).toBe(204);
      expect(await usagesOf(rp)).toMatchObject({ VCPU: 8 });
    });

    it('normalises the consumer in the URL and refuses one that is not a uuid', async () => {
      const rp = await provider();
      const vm = randomUUID();
      expect((await put(vm.replace(/-/g, '').toUpperCase(), '1.12', dict(rp, { VCPU: 1 }))).status).toBe(204);
      expect((await get(vm)).allocations[rp].resources).toEqual({ VCPU: 1 });
      const bad = await put('not-a-uuid', '1.12', dict(rp, { VCPU: 1 }));
      expect(bad.status).toBe(400);
      expect(errorOf(bad).detail).toContain('Malformed consumer_uuid: not-a-uuid');
    });

    it('moving to another provider leaves the old provider\'s generation where it was, as upstream', async () => {
      const [a, b] = [await provider(), await provider()];
      const vm = randomUUID();
      expect((await put(vm, '1.28', dict(a, { VCPU: 2 }, { consumer_generation: null }))).status).toBe(204);
      expect((await put(vm, '1.28', dict(b, { VCPU: 2 }, { consumer_generation: 1 }))).status).toBe(204);
      expect([await generationOf(a), await generationOf(b)]).toEqual([2, 2]);
      expect([await usagesOf(a), await usagesOf(b)]).toEqual([{ VCPU: 0, DISK_GB: 0 }, { VCPU: 2, DISK_GB: 0 }]);
    });
  });

  describe('consumer generations (1.28+)', () => {
    it('requires the generation; null means new; a stale one is a 409 that changes nothing', async () => {
      const rp = await provider();
      const vm = randomUUID();
      expect((await put(vm, '1.28', dict(rp, { VCPU: 1 }))).status).toBe(400);
      const notNew = await put(vm, '1.28', dict(rp, { VCPU: 1 }, { consumer_generation: 5 }));
      expect(notNew.status).toBe(409);
      expect(errorOf(notNew)).toMatchObject({ code: 'placement.concurrent_update' });
      expect(errorOf(notNew).detail).toContain('consumer generation conflict - expected null but got 5');
      expect((await put(vm, '1.28', dict(rp, { VCPU: 1 }, { consumer_generation: null }))).status).toBe(204);
      expect(await get(vm, '1.28')).toMatchObject({ consumer_generation: 1 });

      const stale = await put(vm, '1.28', dict(rp, { VCPU: 4 }, { consumer_generation: null }));
      expect(stale.status).toBe(409);
      expect(errorOf(stale).detail).toContain('consumer generation conflict - expected 1 but got None');
      expect(await get(vm, '1.28')).toMatchObject({ consumer_generation: 1, allocations: { [rp]: { resources: { VCPU: 1 }, generation: 2 } } });

      expect((await put(vm, '1.27', dict(rp, { VCPU: 2 }))).status).toBe(204);
      expect(await get(vm, '1.28')).toMatchObject({ consumer_generation: 2 });
    });

    it('an empty set removes the consumer and moves the generation of the providers it held', async () => {
      const rp = await provider();
      const vm = randomUUID();
      expect((await put(vm, '1.28', dict(rp, { VCPU: 3 }, { consumer_generation: null }))).status).toBe(204);
      expect((await put(vm, '1.12', { allocations: {}, project_id: 'p', user_id: 'u' })).status).toBe(400);
      expect((await put(vm, '1.28', { allocations: {}, project_id: 'p', user_id: 'u', consumer_generation: 1 })).status).toBe(204);
      expect(await get(vm, '1.28')).toEqual({ allocations: {} });
      expect(await generationOf(rp)).toBe(3);
      // The consumer is gone: it can be claimed again as new.
      expect((await put(vm, '1.28', dict(rp, { VCPU: 1 }, { consumer_generation: null }))).status).toBe(204);
    });

    it('an empty set for an unknown consumer keeps it at generation 0, as upstream', async () => {
      const rp = await provider();
      const vm = randomUUID();
      expect((await put(vm, '1.28', { allocations: {}, project_id: 'p', user_id: 'u', consumer_generation: null })).status).toBe(204);
      expect(await get(vm, '1.28')).toEqual({ allocations: {} });
      const again = await put(vm, '1.28', dict(rp, { VCPU: 1 }, { consumer_generation: null }));
      expect(errorOf(again).detail).toContain('expected 0 but got None');
      expect((await put(vm, '1.28', dict(rp, { VCPU: 1 }, { consumer_generation: 0 }))).status).toBe(204);
      expect(await get(vm, '1.28')).toMatchObject({ consumer_generation: 1 });
    });
  });

  describe('mappings (1.34) and consumer types (1.38)', () => {
    it('accepts mappings from 1.34 only', async () => {
      const rp = await provider();
      const body = dict(rp, { VCPU: 1 }, { consumer_generation: null, mappings: { '': [rp] } });
      const early = await put(randomUUID(), '1.33', body);
      expect(errorOf(early).detail).toContain('Additional properties are not allowed');
      expect((await put(randomUUID(), '1.34', body)).status).toBe(204);
      const empty = await put(randomUUID(), '1.34', { ...body, mappings: {} });
      expect(errorOf(empty).detail).toContain('{} does not have enough properties');
    });

    it('requires a type from 1.38, keeps it through older writes, shows "unknown" for none', async () => {
      const rp = await provider();
      const [typed, untyped] = [randomUUID(), randomUUID()];
      const missing = await put(typed, '1.38', dict(rp, { VCPU: 1 }, { consumer_generation: null }));
      expect(errorOf(missing).detail).toContain("'consumer_type' is a required property");
      expect((await put(typed, '1.38', dict(rp, { VCPU: 1 }, { consumer_generation: null, consumer_type: 'INSTANCE' }))).status).toBe(204);
      expect((await put(typed, '1.37', dict(rp, { VCPU: 2 }, { consumer_generation: 1 }))).status).toBe(204);
      expect(await get(typed)).toMatchObject({ consumer_type: 'INSTANCE', consumer_generation: 2 });
      expect((await put(untyped, '1.37', dict(rp, { VCPU: 1 }, { consumer_generation: null }))).status).toBe(204);
      expect(await get(untyped)).toMatchObject({ consumer_type: 'unknown' });
      expect(await get(untyped, '1.37')).not.toHaveProperty('consumer_type');
    });
  });

  describe('DELETE', () => {
    it('releases everything without moving provider generations; a second delete is a 404', async () => {
      const rp = await provider();
      const vm = randomUUID();
      expect((await put(vm, '1.12', dict(rp, { VCPU: 2 }))).status).toBe(204);
      expect((await app.request('DELETE', `/allocations/${vm}`)).status).toBe(204);
      expect(await generationOf(rp)).toBe(2);
      expect(await usagesOf(rp)).toMatchObject({ VCPU: 0 });
      const again = await app.request('DELETE', `/allocations/${vm}`);
      expect(again.status).toBe(404);
      expect(errorOf(again).detail).toContain(`No allocations for consumer '${vm}'`);
    });
  });

  describe('GET /resource_providers/{uuid}/allocations', () => {
    it('lists holdings by consumer, with consumer generations from 1.28 and caching headers from 1.15', async () => {
      const rp = await provider();
      const [vm1, vm2] = [randomUUID(), randomUUID()];
      await put(vm1, '1.12', dict(rp, { VCPU: 2, DISK_GB: 20 }));
      await put(vm2, '1.12', dict(rp, { VCPU: 1 }));
      const old = await app.request('GET', `/resource_providers/${rp}/allocations`, { version: '1.14' });
      expect(old.body).toEqual({
        resource_provider_generation: 3,
        allocations: { [vm1]: { resources: { VCPU: 2, DISK_GB: 20 } }, [vm2]: { resources: { VCPU: 1 } } },
      });
      expect(old.headers.get('last-modified')).toBeNull();
      const reply = await app.request('GET', `/resource_providers/${rp}/allocations`, { version: '1.28' });
      expect(reply.body.allocations[vm1]).toEqual({ resources: { VCPU: 2, DISK_GB: 20 }, consumer_generation: 1 });
      expect(reply.headers.get('last-modified')).toMatch(HTTP_DATE);
      expect(reply.headers.get('cache-control')).toBe('no-cache');
      const missing = randomUUID();
      const notFound = await app.request('GET', `/resource_providers/${missing}/allocations`);
      expect(notFound.status).toBe(404);
      expect(errorOf(notFound).detail).toContain(`Resource provider '${missing}' not found`);
    });

    it('a provider or an inventory in use cannot be deleted', async () => {
      const rp = await provider();
      await put(randomUUID(), '1.12', dict(rp, { VCPU: 2 }));
      const gone = await app.request('DELETE', `/resource_providers/${rp}`, { version: '1.23' });
      expect(gone.status).toBe(409);
      expect(errorOf(gone)).toMatchObject({ code: 'placement.resource_provider.inuse' });
      expect((await app.request('DELETE', `/resource_providers/${rp}/inventories/VCPU`)).status).toBe(409);
      expect((await app.request('DELETE', `/resource_providers/${rp}/inventories/DISK_GB`)).status).toBe(204);
    });
  });
});
