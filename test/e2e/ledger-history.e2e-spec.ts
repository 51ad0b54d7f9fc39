import { randomUUID } from 'node:crypto';
import { LOG_STORES, startTestApp, TestApp } from '../support/test-app.js';

/** A write's reply carries the request id its events must show. */
const requestIdOf = (reply: { headers: Headers }) => reply.headers.get('x-openstack-request-id')!;

// The same arc over both log stores: every answer must be the same whichever keeps the log.
describe.each(LOG_STORES)('ledger: history and audits (log in %s)', (logStore) => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp({}, logStore); });
  afterAll(async () => app.close());

  const rp = randomUUID();
  const vm = randomUUID();
  const other = randomUUID();
  const writes: Record<string, string> = {};

  /** Alice of project ops (an admin) writes; the events must say so. */
  const asAlice = { token: 'alice:ops', headers: { 'x-roles': 'admin,member' } };

  beforeAll(async () => {
    const steps: [string, string, string, object, object?][] = [
      ['create', 'POST', '/resource_providers', { name: `hist-${rp}`, uuid: rp }],
      ['inventory', 'PUT', `/resource_providers/${rp}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 4096 } } }],
      ['traits', 'PUT', `/resource_providers/${rp}/traits`, { resource_provider_generation: 1, traits: ['HW_CPU_X86_AVX'] }, asAlice],
      ['aggregates', 'PUT', `/resource_providers/${rp}/aggregates`, { resource_provider_generation: 2, aggregates: [randomUUID()] }],
      ['claim', 'PUT', `/allocations/${vm}`, {
        allocations: { [rp]: { resources: { VCPU: 2, MEMORY_MB: 512 } } }, project_id: 'proj-h', user_id: 'user-h', consumer_generation: null, consumer_type: 'INSTANCE',
      }],
      ['other', 'PUT', `/allocations/${other}`, {
        allocations: { [rp]: { resources: { VCPU: 1 } } }, project_id: 'proj-h', user_id: 'user-h', consumer_generation: null, consumer_type: 'INSTANCE',
      }],
      ['resize', 'PUT', `/allocations/${vm}`, {
        allocations: { [rp]: { resources: { VCPU: 4, MEMORY_MB: 512 } } }, project_id: 'proj-h', user_id: 'user-h', consumer_generation: 1, consumer_type: 'INSTANCE',
      }],
      ['release', 'DELETE', `/allocations/${other}`, {}],
    ];
    for (const [name, method, path, body, who] of steps) {
      const reply = await app.request(method, path, { version: 'latest', body: method === 'DELETE' ? undefined : body, ...who });
      expect(reply.status).toBeLessThan(300);
      writes[name] = requestIdOf(reply);
    }
  });

  const history = (path: string) => app.request('GET', path);

  describe('of a provider', () => {
    const url = `/ledger/resource_providers/${rp}/history`;

    it('lists every change oldest first, with the generation it produced, the request and who asked', async () => {
      const reply = await history(url);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('cache-control')).toBe('no-cache');
      const { stream, events, next_marker } = reply.body;
      expect(stream).toBe(`provider-${rp}`);
      expect(next_marker).toBeNull();
      expect(events.map((e: any) => [e.type, e.generation, e.revision, e.request_id])).toEqual([
        ['ResourceProviderCreated', 0, 0, writes.create],
        ['InventoriesSet', 1, 1, writes.inventory],
        ['TraitsSet', 2, 2, writes.traits],
        ['AggregatesSet', 3, 3, writes.aggregates],
        ['ProviderAllocationsChanged', 4, 4, writes.claim],
        ['ProviderAllocationsChanged', 5, 5, writes.other],
        ['ProviderAllocationsChanged', 6, 6, writes.resize],
        // Upstream moves no provider generation for DELETE /allocations.
        ['ProviderAllocationsChanged', 6, 7, writes.release],
      ]);
      expect(events[0]).toMatchObject({ user_id: 'admin', project_id: 'admin', roles: ['admin'] });
      expect(events[2]).toMatchObject({ user_id: 'alice', project_id: 'ops', roles: ['admin', 'member'], data: { traits: ['HW_CPU_X86_AVX'] } });
      expect(events[6].data.consumers).toEqual({ [vm]: { VCPU: 4, MEMORY_MB: 512 } });
      expect(events[7].data.consumers).toEqual({ [other]: {} });
      for (const event of events) expect(event.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      const times = events.map((e: any) => e.time);
      expect([...times].sort()).toEqual(times);
    });

    it('lists newest first on request', async () => {
      const asc = (await history(url)).body.events;
      const desc = (await history(`${url}?order=desc`)).body.events;
      expect(desc).toEqual([...asc].reverse());
    });

    it('pages by limit and marker, both ways, without loss or repetition', async () => {
      const all = (await history(url)).body.events;
      for (const order of ['asc', 'desc']) {
        const seen: any[] = [];
        let marker: string | null = null;
        let pages = 0;
        do {
          const page: any = await history(`${url}?order=${order}&limit=3${marker ? `&marker=${marker}` : ''}`);
          expect(page.status).toBe(200);
          expect(page.body.events.length).toBeLessThanOrEqual(3);
          seen.push(...page.body.events);
          marker = page.body.next_marker;
          pages++;
        } while (marker);
        expect(pages).toBe(3);
        expect(seen).toEqual(order === 'asc' ? all : [...all].reverse());
      }
    });

    it('keeps the history of a deleted provider', async () => {
      const gone = randomUUID();
      expect((await app.request('POST', '/resource_providers', { body: { name: `gone-${gone}`, uuid: gone } })).status).toBe(201);
      expect((await app.request('DELETE', `/resource_providers/${gone}`)).status).toBe(204);
      const events = (await history(`/ledger/resource_providers/${gone}/history`)).body.events;
      expect(events.map((e: any) => e.type)).toEqual(['ResourceProviderCreated', 'ResourceProviderDeleted']);
    });

    it('is 404 for a provider that never existed, in upstream\'s error shape', async () => {
      const missing = randomUUID();
      const reply = await app.request('GET', `/ledger/resource_providers/${missing}/history`, { version: 'latest' });
      expect(reply.status).toBe(404);
      expect(reply.body.errors[0]).toMatchObject({
        status: 404, code: 'placement.resource_provider.not_found', request_id: requestIdOf(reply),
      });
      expect(reply.body.errors[0].detail).toContain(`No resource provider with uuid ${missing} found`);
    });

    it('refuses bad paging parameters with 400, changing nothing', async () => {
      for (const query of ['limit=0', 'limit=1001', 'limit=two', 'order=sideways', 'marker=nonsense', 'colour=blue', 'marker=']) {
        const reply = await history(`${url}?${query}`);
        expect([query, reply.status]).toEqual([query, 400]);
        expect(reply.body.errors[0].status).toBe(400);
      }
    });
  });

  describe('of a consumer', () => {
    it('lists its whole sets and its removal, with consumer generations', async () => {
      const events = (await history(`/ledger/consumers/${other}/history`)).body.events;
      expect(events.map((e: any) => [e.type, e.generation, e.request_id])).toEqual([
        ['ConsumerAllocationsReplaced', 1, writes.other],
        ['ConsumerRemoved', 1, writes.release],
      ]);
      expect(events[0].data).toMatchObject({ allocations: { [rp]: { VCPU: 1 } }, project_id: 'proj-h', user_id: 'user-h', consumer_type: 'INSTANCE' });
      const resized = (await history(`/ledger/consumers/${vm}/history?order=desc&limit=1`)).body;
      expect(resized.events.map((e: any) => [e.generation, e.data.allocations])).toEqual([[2, { [rp]: { VCPU: 4, MEMORY_MB: 512 } }]]);
      expect(resized.next_marker).toEqual(expect.any(String));
    });

    it('is 404 for a consumer never written', async () => {
      expect((await history(`/ledger/consumers/${randomUUID()}/history`)).status).toBe(404);
    });
  });

  describe('audits', () => {
    it('lists the consumers holding allocations on a provider, with when and by whom each claim was made', async () => {
      const reply = await app.request('GET', `/ledger/audit/provider-claims?provider=${rp}`);
      expect(reply.status).toBe(200);
      const events = (await history(`/ledger/resource_providers/${rp}/history`)).body.events;
      expect(reply.body).toEqual({
        resource_provider_uuid: rp,
        resource_provider_generation: 6,
        claims: [{
          consumer_uuid: vm,
          resources: { VCPU: 4, MEMORY_MB: 512 },
          project_id: 'proj-h',
          user_id: 'user-h',
          consumer_type: 'INSTANCE',
          consumer_generation: 2,
          claimed_at: events[4].time,
          claimed: { time: events[4].time, position: events[4].position, request_id: writes.claim, user_id: 'admin', project_id: 'admin', roles: ['admin'] },
          last_written_at: events[6].time,
          last_written: { time: events[6].time, position: events[6].position, request_id: writes.resize, user_id: 'admin', project_id: 'admin', roles: ['admin'] },
        }],
      });
    });

    it('answers 404 for an unknown provider and 400 without a provider uuid', async () => {
      expect((await app.request('GET', `/ledger/audit/provider-claims?provider=${randomUUID()}`)).status).toBe(404);
      expect((await app.request('GET', '/ledger/audit/provider-claims')).status).toBe(400);
      expect((await app.request('GET', '/ledger/audit/provider-claims?provider=not-a-uuid')).status).toBe(400);
    });

    it('shows what one request wrote: its events and the allocations it set', async () => {
      const reply = await app.request('GET', `/ledger/audit/request/${writes.resize}`);
      expect(reply.status).toBe(200);
      expect(reply.body.request_id).toBe(writes.resize);
      expect(reply.body.events.map((e: any) => e.stream).sort()).toEqual([`consumer-${vm}`, `provider-${rp}`]);
      expect(reply.body.allocations).toEqual([{
        consumer_uuid: vm, removed: false, allocations: { [rp]: { resources: { VCPU: 4, MEMORY_MB: 512 } } },
        project_id: 'proj-h', user_id: 'user-h', consumer_type: 'INSTANCE', consumer_generation: 2,
        time: expect.any(String), position: expect.any(String),
      }]);
      const released = (await app.request('GET', `/ledger/audit/request/${writes.release}`)).body.allocations;
      expect(released).toEqual([{ consumer_uuid: other, removed: true, consumer_generation: 1, time: expect.any(String), position: expect.any(String) }]);
      expect((await app.request('GET', `/ledger/audit/request/${writes.traits}`)).body.allocations).toEqual([]);
    });

    it('answers 404 for a request that wrote nothing', async () => {
      const read = await app.request('GET', `/resource_providers/${rp}`);
      expect((await app.request('GET', `/ledger/audit/request/${requestIdOf(read)}`)).status).toBe(404);
    });

    it('finds consumers holding allocations unchanged for longer than an age', async () => {
      const stale = async (age: string) => app.request('GET', `/ledger/audit/stale-consumers?older_than=${age}`);
      const now = await stale('PT0S');
      expect(now.status).toBe(200);
      const found = now.body.consumers.find((c: any) => c.consumer_uuid === vm);
      expect(found).toMatchObject({
        project_id: 'proj-h', user_id: 'user-h', consumer_type: 'INSTANCE', consumer_generation: 2,
        allocations: { [rp]: { resources: { VCPU: 4, MEMORY_MB: 512 } } },
      });
      expect(found.age_seconds).toBeGreaterThanOrEqual(0);
      expect(now.body.consumers.map((c: any) => c.consumer_uuid)).not.toContain(other);
      for (const age of ['P1D', '3600']) {
        const none = await stale(age);
        expect(none.body.consumers.map((c: any) => c.consumer_uuid)).not.toContain(vm);
      }
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await stale('1')).body.consumers.map((c: any) => c.consumer_uuid)).toContain(vm);
      expect((await stale('PT1S')).body.older_than).toBe('PT1S');
    });

    it('refuses an age that is neither seconds nor an ISO 8601 duration', async () => {
      for (const age of ['', 'yesterday', 'P', '-5']) {
        expect([age, (await app.request('GET', `/ledger/audit/stale-consumers?older_than=${age}`)).status]).toEqual([age, 400]);
      }
      expect((await app.request('GET', '/ledger/audit/stale-consumers')).status).toBe(400);
    });
  });

  describe('authorization', () => {
    it('keeps the ledger to admin and service by default: a reader of the consumers\' own project is refused, and a token is needed', async () => {
      const reader = { token: 'auditor:proj-h', headers: { 'x-roles': 'reader' } };
      for (const url of [`/ledger/resource_providers/${rp}/history`, `/ledger/consumers/${vm}/history`, '/ledger/events', `/ledger/audit/request/${writes.claim}`]) {
        const refused = await app.request('GET', url, reader);
        expect([url, refused.status]).toEqual([url, 403]);
        expect(refused.body.errors[0].detail).toMatch(/Policy does not allow placement:ledger:[a-z_:]+ to be performed\./);
      }
      expect((await app.request('GET', `/ledger/consumers/${vm}/history`, { token: 'svc:service', headers: { 'x-roles': 'service' } })).status).toBe(200);
      expect((await app.request('GET', `/ledger/resource_providers/${rp}/history`, { token: null })).status).toBe(401);
    });

    it('answers 405 to a write on a ledger route', async () => {
      const reply = await app.request('POST', '/ledger/events', { body: {} });
      expect(reply.status).toBe(405);
    });
  });
});
