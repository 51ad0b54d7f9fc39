import { randomUUID } from 'node:crypto';
import { RequestOptions, startTestApp, TestApp } from '../support/test-app.js';

const MERGE_PATCH = 'application/merge-patch+json';
const BW = 'NET_BW_EGR_KILOBIT_PER_SEC';

describe('PATCH /ledger/allocations/{consumer}: a merge patch claimed as PUT claims', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  async function provider(inventories: object): Promise<string> {
    const uuid = randomUUID();
    expect((await app.request('POST', '/resource_providers', { version: '1.20', body: { name: `rp-${uuid}`, uuid } })).status).toBe(200);
    expect((await app.request('PUT', `/resource_providers/${uuid}/inventories`, {
      version: '1.20', body: { resource_provider_generation: 0, inventories },
    })).status).toBe(200);
    return uuid;
  }
  const get = async (consumer: string) => (await app.request('GET', `/allocations/${consumer}`, { version: '1.39' })).body;
  const resourcesOf = async (consumer: string) =>
    Object.fromEntries(Object.entries<any>((await get(consumer)).allocations).map(([rp, entry]) => [rp, entry.resources]));
  const usagesOf = async (uuid: string) => (await app.request('GET', `/resource_providers/${uuid}/usages`)).body.usages;
  const patch = (consumer: string, body: unknown, options: RequestOptions = {}) =>
    // Error codes come with 1.23 and up, on this route as on every other.
    app.request('PATCH', `/ledger/allocations/${consumer}`, { version: '1.39', ...options, body, headers: { 'content-type': MERGE_PATCH, ...options.headers } });
  const errorOf = (reply: { body: any }) => reply.body.errors[0];

  let compute: string;
  let nic: string;
  /** A VM holding VCPU 2 and MEMORY_MB 512 on compute, generation 1 (type INSTANCE). */
  async function vm(): Promise<string> {
    const uuid = randomUUID();
    const reply = await app.request('PUT', `/allocations/${uuid}`, {
      version: '1.38',
      body: {
        allocations: { [compute]: { resources: { VCPU: 2, MEMORY_MB: 512 } } },
        project_id: 'proj', user_id: 'user', consumer_generation: null, consumer_type: 'INSTANCE',
      },
    });
    expect(reply.status).toBe(204);
    return uuid;
  }

  beforeAll(async () => {
    compute = await provider({ VCPU: { total: 64 }, MEMORY_MB: { total: 65_536 } });
    nic = await provider({ [BW]: { total: 10_000, step_size: 100 } });
  });

  it('adds a class on a new provider (the port bandwidth Neutron attaches), leaving the rest, and answers as PUT does', async () => {
    const consumer = await vm();
    const reply = await patch(consumer, { consumer_generation: 1, allocations: { [nic]: { resources: { [BW]: 1000 } } } });
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expect(reply.headers.get('x-openstack-request-id')).toMatch(/^req-/);
    expect(reply.headers.get('last-modified')).toBeNull();
    expect(await get(consumer)).toMatchObject({
      allocations: { [compute]: { resources: { VCPU: 2, MEMORY_MB: 512 } }, [nic]: { resources: { [BW]: 1000 } } },
      consumer_generation: 2, project_id: 'proj', user_id: 'user', consumer_type: 'INSTANCE',
    });
    expect(await usagesOf(nic)).toEqual({ [BW]: 1000 });
  });

  it('sets a class to a new amount and removes a class with null', async () => {
    const consumer = await vm();
    const before = await usagesOf(compute);
    expect((await patch(consumer, { consumer_generation: 1, allocations: { [compute]: { resources: { VCPU: 4, MEMORY_MB: null } } } })).status).toBe(204);
    expect(await resourcesOf(consumer)).toEqual({ [compute]: { VCPU: 4 } });
    expect(await usagesOf(compute)).toEqual({ VCPU: before.VCPU + 2, MEMORY_MB: before.MEMORY_MB - 512 });
  });

  it('removes a whole provider with null, and the consumer once nothing is left, as PUT of an empty set', async () => {
    const consumer = await vm();
    expect((await patch(consumer, { consumer_generation: 1, allocations: { [nic]: { resources: { [BW]: 500 } } } })).status).toBe(204);
    expect((await patch(consumer, { consumer_generation: 2, allocations: { [compute]: null } })).status).toBe(204);
    expect(await resourcesOf(consumer)).toEqual({ [nic]: { [BW]: 500 } });
    expect((await patch(consumer, { consumer_generation: 3, allocations: { [nic]: null } })).status).toBe(204);
    expect(await get(consumer)).toEqual({ allocations: {} });
    // The consumer is gone: a patch has nothing left to merge into.
    expect((await patch(consumer, { consumer_generation: 4, allocations: { [nic]: { resources: { [BW]: 100 } } } })).status).toBe(404);
  });

  it('changes the owners and the consumer type without touching the allocations', async () => {
    const consumer = await vm();
    expect((await patch(consumer, { consumer_generation: 1, project_id: 'proj-2', user_id: 'user-2', consumer_type: 'MIGRATION' })).status).toBe(204);
    expect(await get(consumer)).toMatchObject({
      allocations: { [compute]: { resources: { VCPU: 2, MEMORY_MB: 512 } } }, project_id: 'proj-2', user_id: 'user-2', consumer_type: 'MIGRATION', consumer_generation: 2,
    });
  });

  it('refuses a stale consumer generation with 409 placement.concurrent_update and changes nothing', async () => {
    const consumer = await vm();
    const reply = await patch(consumer, { consumer_generation: 0, allocations: { [compute]: { resources: { VCPU: 3 } } } });
    expect(reply.status).toBe(409);
    expect(errorOf(reply)).toMatchObject({ code: 'placement.concurrent_update', detail: expect.stringContaining('consumer generation conflict - expected 1 but got 0') });
    expect(await resourcesOf(consumer)).toEqual({ [compute]: { VCPU: 2, MEMORY_MB: 512 } });
  });

  it('refuses a merged set beyond capacity or off the step size, as PUT does, and changes nothing', async () => {
    const consumer = await vm();
    const over = await patch(consumer, { consumer_generation: 1, allocations: { [compute]: { resources: { VCPU: 65 } } } });
    expect(over.status).toBe(409);
    expect(errorOf(over).detail).toContain('Unable to allocate inventory');
    const offStep = await patch(consumer, { consumer_generation: 1, allocations: { [nic]: { resources: { [BW]: 150 } } } });
    expect(offStep.status).toBe(409);
    expect(await get(consumer)).toMatchObject({ consumer_generation: 1, allocations: { [compute]: { resources: { VCPU: 2, MEMORY_MB: 512 } } } });
  });

  it('refuses a malformed patch with 400 in upstream shape, and changes nothing', async () => {
    const consumer = await vm();
    const bodies: unknown[] = [
      '', '[1, 2]', '"text"', '{not json', { allocations: {} }, { consumer_generation: 1, allocations: null },
      { consumer_generation: '1' }, { consumer_generation: null }, { consumer_generation: 1, colour: 'red' },
      { consumer_generation: 1, allocations: { [compute]: { resources: { VCPU: 0 } } } },
      { consumer_generation: 1, allocations: { [compute]: { resources: { VCPU: 'two' } } } },
      { consumer_generation: 1, allocations: { [compute]: { resources: { vcpu: 1 } } } },
      { consumer_generation: 1, allocations: { [compute]: { used: 1 } } },
      { consumer_generation: 1, allocations: { 'not-a-uuid': { resources: { VCPU: 1 } } } },
      { consumer_generation: 1, allocations: [] },
      { consumer_generation: 1, project_id: null },
    ];
    for (const body of bodies) {
      const reply = await patch(consumer, body);
      expect({ body, status: reply.status }).toEqual({ body, status: 400 });
      expect(errorOf(reply)).toMatchObject({ status: 400, title: 'Bad Request', code: 'placement.undefined_code', request_id: expect.stringMatching(/^req-/) });
    }
    expect((await patch('not-a-uuid', { consumer_generation: 1 })).status).toBe(400);
    expect(await get(consumer)).toMatchObject({ consumer_generation: 1, allocations: { [compute]: { resources: { VCPU: 2, MEMORY_MB: 512 } } } });
  });

  it('refuses another content type with 415', async () => {
    const consumer = await vm();
    for (const type of ['application/json', 'application/json-patch+json', 'text/plain']) {
      const reply = await app.request('PATCH', `/ledger/allocations/${consumer}`, { body: { consumer_generation: 1 }, headers: { 'content-type': type } });
      expect(reply.status).toBe(415);
      expect(errorOf(reply).detail).toContain(MERGE_PATCH);
    }
    expect((await get(consumer)).consumer_generation).toBe(1);
  });

  it('never creates a consumer: 404', async () => {
    const consumer = randomUUID();
    const reply = await patch(consumer, { consumer_generation: 0, allocations: { [compute]: { resources: { VCPU: 1 } } } });
    expect(reply.status).toBe(404);
    expect(errorOf(reply).detail).toContain(`Consumer ${consumer} not found`);
    expect(await get(consumer)).toEqual({ allocations: {} });
  });

  it('is guarded by placement:allocations:update: a project member is refused with 403', async () => {
    const consumer = await vm();
    const reply = await patch(consumer, { consumer_generation: 1, allocations: { [compute]: null } }, {
      token: 'user', headers: { 'x-roles': 'member,reader', 'x-project-id': 'proj' },
    });
    expect(reply.status).toBe(403);
    expect(errorOf(reply).detail).toContain('placement:allocations:update');
    expect((await get(consumer)).consumer_generation).toBe(1);
  });

  it('shows in the ledger history as what it is: the claim events, marked as a merge patch, from one request', async () => {
    const consumer = await vm();
    const reply = await patch(consumer, { consumer_generation: 1, allocations: { [nic]: { resources: { [BW]: 200 } } } });
    const requestId = reply.headers.get('x-openstack-request-id');
    const { events } = (await app.request('GET', `/ledger/consumers/${consumer}/history?order=desc&limit=1`)).body;
    expect(events[0]).toMatchObject({
      type: 'ConsumerAllocationsReplaced', request_id: requestId, operation: 'merge-patch', generation: 2,
      data: { allocations: { [compute]: { VCPU: 2, MEMORY_MB: 512 }, [nic]: { [BW]: 200 } } },
    });
    const nicEvents = (await app.request('GET', `/ledger/resource_providers/${nic}/history?order=desc&limit=1`)).body.events;
    expect(nicEvents[0]).toMatchObject({ type: 'ProviderAllocationsChanged', request_id: requestId, operation: 'merge-patch' });
    const put = (await app.request('GET', `/ledger/consumers/${consumer}/history?order=asc&limit=1`)).body.events[0];
    expect(put).not.toHaveProperty('operation');
  });
});
