import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

const HTTP_DATE = /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

describe('inventories: /resource_providers/{uuid}/inventories[/{resource_class}]', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  async function newProvider(): Promise<string> {
    const uuid = randomUUID();
    const reply = await app.request('POST', '/resource_providers', { body: { name: `inv-${uuid}`, uuid } });
    expect(reply.status).toBe(201);
    return uuid;
  }
  const inventories = (uuid: string) => `/resource_providers/${uuid}/inventories`;
  const generationOf = async (uuid: string) => (await app.request('GET', inventories(uuid))).body.resource_provider_generation;

  it('lists nothing for a new provider, and 404s for a missing one', async () => {
    const uuid = await newProvider();
    const empty = await app.request('GET', inventories(uuid), { version: '1.15' });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ resource_provider_generation: 0, inventories: {} });
    // Upstream has no timestamp to give for an empty set: Cache-Control only.
    expect(empty.headers.get('cache-control')).toBe('no-cache');
    expect(empty.headers.get('last-modified')).toBeNull();

    const missing = randomUUID();
    const reply = await app.request('GET', inventories(missing));
    expect(reply.status).toBe(404);
    expect(reply.body.errors[0].detail).toContain(`No resource provider with uuid ${missing} found : No resource provider`);
  });

  it('creates one inventory with POST, filling upstream defaults', async () => {
    const uuid = await newProvider();
    const reply = await app.request('POST', inventories(uuid), { version: '1.15', body: { resource_class: 'DISK_GB', total: 2048, reserved: 512 } });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('location')).toBe(`${app.baseUrl}${inventories(uuid)}/DISK_GB`);
    expect(reply.headers.get('last-modified')).toMatch(HTTP_DATE);
    expect(reply.body).toEqual({
      total: 2048, reserved: 512, min_unit: 1, max_unit: 2147483647, step_size: 1, allocation_ratio: 1, resource_provider_generation: 1,
    });

    const shown = await app.request('GET', `${inventories(uuid)}/DISK_GB`, { version: '1.15' });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ total: 2048, reserved: 512, resource_provider_generation: 1 });
    expect(shown.headers.get('last-modified')).toMatch(HTTP_DATE);
    const old = await app.request('GET', `${inventories(uuid)}/DISK_GB`, { version: '1.14' });
    expect(old.headers.get('last-modified')).toBeNull();
    expect(old.headers.get('cache-control')).toBeNull();
  });

  it('refuses bad POSTs with 4xx and changes nothing', async () => {
    const uuid = await newProvider();
    await app.request('POST', inventories(uuid), { body: { resource_class: 'VCPU', total: 4 } });
    const cases: Array<[unknown, number, string]> = [
      [{ resource_class: 'DISK_GB' }, 400, "'total' is a required property"],
      [{ resource_class: 'DISK_GB', total: 0 }, 400, "Failed validating 'minimum' in schema['properties']['total']"],
      [{ resource_class: 'DISK_GB', total: 2147483648 }, 400, "Failed validating 'maximum'"],
      [{ resource_class: 'DISK_GB', total: 10, allocation_ratio: 3.40282e39 }, 400, "Failed validating 'maximum'"],
      [{ resource_class: 'bad_class', total: 10 }, 400, 'JSON does not validate'],
      [{ resource_class: 'DISK_GB', total: 256, reserved: 512 }, 400, `Unable to create inventory for resource provider ${uuid}`],
      [{ resource_class: 'NO_CLASS_14', total: 10 }, 400, 'No such resource class NO_CLASS_14'],
      [{ resource_class: 'VCPU', total: 8 }, 409, 'Update conflict'],
      ['{"foo": }', 400, 'Malformed JSON'],
    ];
    for (const [body, status, text] of cases) {
      const reply = await app.request('POST', inventories(uuid), { body });
      expect([reply.status, reply.text]).toEqual([status, expect.stringContaining(text)]);
    }
    const wrongType = await app.request('POST', inventories(uuid), { body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(wrongType.status).toBe(415);
    expect(await generationOf(uuid)).toBe(1);
    const missing = await app.request('POST', inventories(randomUUID()), { body: { resource_class: 'VCPU', total: 1 } });
    expect(missing.status).toBe(404);
  });

  it('updates one inventory with PUT, guarded by the generation', async () => {
    const uuid = await newProvider();
    await app.request('POST', inventories(uuid), { body: { resource_class: 'DISK_GB', total: 2048 } });
    const one = `${inventories(uuid)}/DISK_GB`;
    const ok = await app.request('PUT', one, { body: { resource_provider_generation: 1, total: 2048, reserved: 1024 } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('application/json');
    expect(ok.body).toMatchObject({ reserved: 1024, resource_provider_generation: 2 });

    const stale = await app.request('PUT', one, { version: '1.23', body: { resource_provider_generation: 1, total: 10 } });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({ code: 'placement.concurrent_update', detail: expect.stringContaining('resource provider generation conflict') });

    const absent = await app.request('PUT', `${inventories(uuid)}/MEMORY_MB`, { body: { resource_provider_generation: 2, total: 10 } });
    expect(absent.status).toBe(400);
    expect(absent.text).toContain('No inventory record with resource class');
    const unknown = await app.request('PUT', `${inventories(uuid)}/CUSTOM_NOPE`, { body: { resource_provider_generation: 2, total: 10 } });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('No such resource class CUSTOM_NOPE.');
    const noGeneration = await app.request('PUT', one, { body: { total: 10 } });
    expect(noGeneration.status).toBe(400);
    expect(noGeneration.text).toContain("'resource_provider_generation' is a required property");

    const full = { resource_provider_generation: 2, total: 512, reserved: 512 };
    const before126 = await app.request('PUT', one, { body: full });
    expect(before126.status).toBe(400);
    expect(before126.text).toContain('greater than or equal to total');
    expect(await generationOf(uuid)).toBe(2);
    const at126 = await app.request('PUT', one, { version: '1.26', body: full });
    expect(at126.status).toBe(200);
    expect(at126.body).toMatchObject({ total: 512, reserved: 512, resource_provider_generation: 3 });
  });

  it('replaces all inventories with PUT', async () => {
    const uuid = await newProvider();
    const reply = await app.request('PUT', inventories(uuid), {
      version: '1.15',
      body: { resource_provider_generation: 0, inventories: { IPV4_ADDRESS: { total: 253 }, DISK_GB: { total: 1024, allocation_ratio: 1.5 } } },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('last-modified')).toMatch(HTTP_DATE);
    expect(reply.body.resource_provider_generation).toBe(1);
    expect(reply.body.inventories.IPV4_ADDRESS).toEqual({ total: 253, reserved: 0, min_unit: 1, max_unit: 2147483647, step_size: 1, allocation_ratio: 1 });
    expect(reply.body.inventories.DISK_GB.allocation_ratio).toBe(1.5);

    const listed = await app.request('GET', inventories(uuid));
    expect(Object.keys(listed.body.inventories).sort()).toEqual(['DISK_GB', 'IPV4_ADDRESS']);

    const shrunk = await app.request('PUT', inventories(uuid), { body: { resource_provider_generation: 1, inventories: { DISK_GB: { total: 10 } } } });
    expect(shrunk.body).toEqual({ resource_provider_generation: 2, inventories: { DISK_GB: expect.objectContaining({ total: 10 }) } });
    const gone = await app.request('GET', `${inventories(uuid)}/IPV4_ADDRESS`);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain(`No inventory of class IPV4_ADDRESS for ${uuid}`);

    const emptied = await app.request('PUT', inventories(uuid), { version: '1.15', body: { resource_provider_generation: 2, inventories: {} } });
    expect(emptied.body).toEqual({ resource_provider_generation: 3, inventories: {} });
    expect(emptied.headers.get('last-modified')).toBeNull();
  });

  it('refuses bad PUTs of all inventories and changes nothing', async () => {
    const uuid = await newProvider();
    await app.request('PUT', inventories(uuid), { body: { resource_provider_generation: 0, inventories: { VCPU: { total: 4 } } } });
    const cases: Array<[unknown, number, string]> = [
      [{ resource_provider_generation: 99, inventories: { VCPU: { total: 4 } } }, 409, 'resource provider generation conflict'],
      [{ resource_provider_generation: 1, inventories: { HOUSE: { total: 4 } } }, 400, 'Unknown resource class in inventory'],
      [{ resource_provider_generation: 1, inventories: { house: { total: 4 } } }, 400, 'No such resource class house'],
      // Upstream answers these two with a 500; a bad record is bad input whatever its key.
      [{ resource_provider_generation: 1, inventories: { house: 'red' } }, 400, 'JSON does not validate'],
      [{ resource_provider_generation: 1, inventories: { house: { foo: 1 } } }, 400, 'JSON does not validate'],
      [{ resource_provider_generation: 1, inventories: { VCPU: { total: 2147483648 } } }, 400, "Failed validating 'maximum'"],
      [{ resource_provider_generation: 1, inventories: { VCPU: { total: 4, reserved: 4 } } }, 400, 'greater than or equal to total'],
      [{ resource_provider_generation: 1 }, 400, "'inventories' is a required property"],
    ];
    for (const [body, status, text] of cases) {
      const reply = await app.request('PUT', inventories(uuid), { body });
      expect([reply.status, reply.text]).toEqual([status, expect.stringContaining(text)]);
    }
    expect(await generationOf(uuid)).toBe(1);
    const missing = await app.request('PUT', inventories(randomUUID()), { body: { resource_provider_generation: 0, inventories: {} } });
    expect(missing.status).toBe(404);
  });

  it('deletes one inventory, then 404s for it', async () => {
    const uuid = await newProvider();
    await app.request('PUT', inventories(uuid), { body: { resource_provider_generation: 0, inventories: { VCPU: { total: 4 }, DISK_GB: { total: 9 } } } });
    const deleted = await app.request('DELETE', `${inventories(uuid)}/VCPU`);
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get('content-type')).toBeNull();
    expect(await generationOf(uuid)).toBe(2);

    const again = await app.request('DELETE', `${inventories(uuid)}/VCPU`);
    expect(again.status).toBe(404);
    expect(again.text).toContain('No inventory of class VCPU found for delete');
    const unknown = await app.request('DELETE', `${inventories(uuid)}/CUSTOM_NOPE`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('No inventory of class CUSTOM_NOPE found for delete: No such resource class CUSTOM_NOPE.');
    const missing = await app.request('DELETE', `${inventories(randomUUID())}/VCPU`);
    expect(missing.status).toBe(404);
    expect(await generationOf(uuid)).toBe(2);
  });

  it('deletes all inventories from 1.5, 405 below', async () => {
    const uuid = await newProvider();
    await app.request('POST', inventories(uuid), { body: { resource_class: 'VCPU', total: 4 } });
    const old = await app.request('DELETE', inventories(uuid), { version: '1.4' });
    expect(old.status).toBe(405);
    expect(await generationOf(uuid)).toBe(1);

    expect((await app.request('DELETE', inventories(uuid), { version: '1.5' })).status).toBe(204);
    // Deleting nothing still counts as a change upstream.
    expect((await app.request('DELETE', inventories(uuid), { version: '1.5' })).status).toBe(204);
    expect(await app.request('GET', inventories(uuid)).then((r) => r.body)).toEqual({ resource_provider_generation: 3, inventories: {} });
    expect((await app.request('DELETE', inventories(randomUUID()), { version: '1.5' })).status).toBe(404);
  });

  it('answers 405 with the allowed methods for unsupported methods', async () => {
    const uuid = await newProvider();
    const all = await app.request('PATCH', inventories(uuid));
    expect(all.status).toBe(405);
    expect(all.headers.get('allow')).toBe('DELETE, GET, POST, PUT');
    const one = await app.request('POST', `${inventories(uuid)}/VCPU`, { body: { total: 1 } });
    expect(one.status).toBe(405);
    expect(one.headers.get('allow')).toBe('DELETE, GET, PUT');
  });
});
