import { randomUUID } from 'node:crypto';
import { LOG_STORES, startTestApp, TestApp } from '../support/test-app.js';

/** "…:SS.ffffffZ" moved by some microseconds, exactly (a Date keeps only milliseconds). */
function shiftMicros(time: string, micros: number): string {
  const [whole, fraction] = time.replace('Z', '').split('.');
  const total = BigInt(Date.parse(`${whole}Z`)) * 1000n + BigInt(fraction) + BigInt(micros);
  const seconds = new Date(Number(total / 1000000n) * 1000).toISOString().slice(0, 19);
  return `${seconds}.${String(total % 1000000n).padStart(6, '0')}Z`;
}

/** The same instant written with a +02:00 offset. */
function inPlusTwo(time: string): string {
  const [whole, fraction] = time.replace('Z', '').split('.');
  const local = new Date(Date.parse(`${whole}Z`) + 2 * 3600_000).toISOString().slice(0, 19);
  return `${local}.${fraction}+02:00`;
}

// The same arc over both log stores: every answer must be the same whichever keeps the log.
describe.each(LOG_STORES)('ledger: time travel (as_of) (log in %s)', (logStore) => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp({}, logStore); });
  afterAll(async () => app.close());

  const root = randomUUID();
  const child = randomUUID();
  const newRoot = randomUUID();
  const vm = randomUUID();
  const vm2 = randomUUID();
  const project = `proj-${randomUUID().slice(0, 8)}`;
  const aggregate = randomUUID();

  /** What the live API answered right after each step, at the latest microversion. */
  interface Snapshot { readonly step: string; readonly first: any; readonly last: any; readonly live: Record<string, { status: number; body: any }> }
  const snapshots: Snapshot[] = [];

  const reads: Record<string, string> = {
    root: `/resource_providers/${root}`,
    child: `/resource_providers/${child}`,
    inventories: `/resource_providers/${child}/inventories`,
    traits: `/resource_providers/${child}/traits`,
    aggregates: `/resource_providers/${child}/aggregates`,
    usages: `/resource_providers/${child}/usages`,
    allocations: `/resource_providers/${child}/allocations`,
    vm: `/allocations/${vm}`,
    vm2: `/allocations/${vm2}`,
    project: `/usages?project_id=${project}`,
    user: `/usages?project_id=${project}&user_id=user-b`,
    migrations: `/usages?project_id=${project}&consumer_type=MIGRATION`,
  };
  /** The ledger twin of each upstream read. */
  const asOfPath = (read: string, asOf: string) => {
    const [path, query] = reads[read].split('?');
    return `/ledger/as-of${path}?${query ? `${query}&` : ''}as_of=${encodeURIComponent(asOf)}`;
  };

  const claim = (allocations: object, generation: number | null, user = 'user-a', type = 'INSTANCE') =>
    ({ allocations, project_id: project, user_id: user, consumer_generation: generation, consumer_type: type });

  beforeAll(async () => {
    const steps: [string, string, string, object?, string?][] = [
      ['root', 'POST', '/resource_providers', { name: `tt-root-${root}`, uuid: root }],
      ['child', 'POST', '/resource_providers', { name: `tt-child-${child}`, uuid: child, parent_provider_uuid: root }],
      ['inventory', 'PUT', reads.inventories, { resource_provider_generation: 0, inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 2048, max_unit: 1024 } } }],
      ['traits', 'PUT', reads.traits, { resource_provider_generation: 1, traits: ['HW_CPU_X86_AVX', 'HW_CPU_X86_SSE'] }],
      ['aggregates', 'PUT', reads.aggregates, { resource_provider_generation: 2, aggregates: [aggregate] }],
      ['claim', 'PUT', reads.vm, claim({ [child]: { resources: { VCPU: 2, MEMORY_MB: 256 } } }, null)],
      ['claim2', 'PUT', reads.vm2, claim({ [child]: { resources: { VCPU: 1 } } }, null, 'user-b', 'MIGRATION')],
      ['resize', 'PUT', reads.vm, claim({ [child]: { resources: { VCPU: 4, MEMORY_MB: 512 } } }, 1)],
      ['new-root', 'POST', '/resource_providers', { name: `tt-new-root-${newRoot}`, uuid: newRoot }],
      ['move', 'PUT', reads.child, { name: `tt-moved-${child}`, parent_provider_uuid: newRoot }],
      ['inventory-2', 'PUT', reads.inventories, { resource_provider_generation: 6, inventories: { VCPU: { total: 16, allocation_ratio: 2 }, MEMORY_MB: { total: 2048, max_unit: 1024 } } }],
      ['release', 'DELETE', reads.vm2],
      ['traits-cleared', 'DELETE', reads.traits],
    ];
    for (const [step, method, path, body] of steps) {
      const reply = await app.request(method, path, { version: 'latest', body });
      expect([step, reply.status]).toEqual([step, reply.status < 300 ? reply.status : 'a success']);
      const requestId = reply.headers.get('x-openstack-request-id')!;
      const events = (await app.request('GET', `/ledger/audit/request/${requestId}`)).body.events;
      const live: Snapshot['live'] = {};
      for (const [name, read] of Object.entries(reads)) {
        const answer = await app.request('GET', read, { version: 'latest' });
        live[name] = { status: answer.status, body: answer.body };
      }
      snapshots.push({ step, first: events[0], last: events[events.length - 1], live });
    }
  });

  const snapshot = (step: string) => snapshots.find((s) => s.step === step)!;
  const get = (path: string) => app.request('GET', path, { version: 'latest' });

  /** Every ledger read at `asOf` answers exactly what the live API answered then (providers that existed). */
  async function expectSameAs(live: Snapshot['live'], asOf: string) {
    for (const read of Object.keys(reads)) {
      const past = await get(asOfPath(read, asOf));
      if (live[read].status === 404) {
        expect([read, past.status]).toEqual([read, 404]);
        continue;
      }
      expect([read, past.status, past.body]).toEqual([read, 200, live[read].body]);
    }
  }

  it('answers, at the position after each step, exactly what the API answered then', async () => {
    for (const { step, last, live } of snapshots) {
      try {
        await expectSameAs(live, last.position);
      } catch (error) {
        throw new Error(`after step ${step}: ${(error as Error).message}`);
      }
    }
  });

  it('answers, at the time of each step\'s event, that step; a microsecond earlier, the step before', async () => {
    for (let i = 1; i < snapshots.length; i++) {
      const { step, first, last, live } = snapshots[i];
      try {
        await expectSameAs(live, last.time);
        await expectSameAs(snapshots[i - 1].live, shiftMicros(first.time, -1));
      } catch (error) {
        throw new Error(`at step ${step}: ${(error as Error).message}`);
      }
    }
  });

  it('shows the values of the past, not only equal ones', async () => {
    const atClaim = snapshot('claim').last.position;
    expect((await get(asOfPath('child', atClaim))).body).toMatchObject({
      uuid: child, name: `tt-child-${child}`, generation: 4, parent_provider_uuid: root, root_provider_uuid: root,
    });
    expect((await get(asOfPath('usages', atClaim))).body).toEqual({ resource_provider_generation: 4, usages: { VCPU: 2, MEMORY_MB: 256 } });
    expect((await get(asOfPath('vm', atClaim))).body).toEqual({
      allocations: { [child]: { resources: { VCPU: 2, MEMORY_MB: 256 }, generation: 4 } },
      project_id: project, user_id: 'user-a', consumer_generation: 1, consumer_type: 'INSTANCE',
    });
    expect((await get(asOfPath('project', snapshot('claim2').last.position))).body).toEqual({
      usages: { INSTANCE: { consumer_count: 1, VCPU: 2, MEMORY_MB: 256 }, MIGRATION: { consumer_count: 1, VCPU: 1 } },
    });
    // Re-parented later: the root then is not the root now.
    const atMove = snapshot('move').last.position;
    expect((await get(asOfPath('child', atMove))).body).toMatchObject({ parent_provider_uuid: newRoot, root_provider_uuid: newRoot });
    expect((await get(asOfPath('traits', snapshot('aggregates').last.position))).body.traits.sort()).toEqual(['HW_CPU_X86_AVX', 'HW_CPU_X86_SSE']);
  });

  it('is 404 for a provider before it was created, and an empty set for a consumer not yet written', async () => {
    const beforeEverything = shiftMicros(snapshot('root').first.time, -1);
    for (const read of ['root', 'child', 'inventories', 'traits', 'aggregates', 'usages', 'allocations']) {
      const reply = await get(asOfPath(read, beforeEverything));
      expect([read, reply.status]).toEqual([read, 404]);
      expect(reply.body.errors[0].code).toBe('placement.resource_provider.not_found');
    }
    const childNotYet = await get(asOfPath('child', snapshot('root').last.position));
    expect(childNotYet.status).toBe(404);
    expect(childNotYet.body.errors[0].detail).toContain(`No resource provider with uuid ${child} found as of`);
    expect((await get(asOfPath('vm', snapshot('traits').last.position))).body).toEqual({ allocations: {} });
    expect((await get(asOfPath('project', beforeEverything))).body).toEqual({ usages: {} });
  });

  it('is 404 for a provider after it was deleted, and shows it before', async () => {
    const gone = randomUUID();
    const created = await app.request('POST', '/resource_providers', { version: 'latest', body: { name: `tt-gone-${gone}`, uuid: gone } });
    const deleted = await app.request('DELETE', `/resource_providers/${gone}`);
    expect([created.status, deleted.status]).toEqual([200, 204]);
    const events = (await get(`/ledger/resource_providers/${gone}/history`)).body.events;
    expect((await get(`/ledger/as-of/resource_providers/${gone}?as_of=${events[0].position}`)).body).toMatchObject({ uuid: gone, generation: 0 });
    expect((await get(`/ledger/as-of/resource_providers/${gone}?as_of=${events[1].position}`)).status).toBe(404);
  });

  it('reads a time with an offset, even one whose + arrived unencoded', async () => {
    const { last, live } = snapshot('resize');
    const offset = inPlusTwo(last.time);
    expect((await get(`/ledger/as-of/allocations/${vm}?as_of=${encodeURIComponent(offset)}`)).body).toEqual(live.vm.body);
    expect((await get(`/ledger/as-of/allocations/${vm}?as_of=${offset}`)).body).toEqual(live.vm.body);
  });

  it('refuses a missing or malformed as_of with 400, and unknown parameters', async () => {
    for (const path of [
      `/ledger/as-of/resource_providers/${child}`, `/ledger/as-of/resource_providers/${child}?as_of=`,
      `/ledger/as-of/resource_providers/${child}?as_of=yesterday`, `/ledger/as-of/resource_providers/${child}?as_of=2024-02-30T00:00:00Z`,
      `/ledger/as-of/resource_providers/${child}?as_of=2024-02-01T00:00:00`, `/ledger/as-of/allocations/${vm}?as_of=12345`,
      `/ledger/as-of/resource_providers/${child}/usages?as_of=${snapshot('claim').last.position}&verbose=1`,
      `/ledger/as-of/usages?as_of=${snapshot('claim').last.position}`, `/ledger/as-of/usages?project_id=${project}`,
      `/ledger/as-of/usages?project_id=${project}&consumer_type=lowercase&as_of=${snapshot('claim').last.position}`,
    ]) {
      const reply = await get(path);
      expect([path, reply.status]).toEqual([path, 400]);
      expect(reply.body.errors[0].status).toBe(400);
    }
    const malformed = await get(`/ledger/as-of/resource_providers/${child}?as_of=yesterday`);
    expect(malformed.body.errors[0]).toMatchObject({ code: 'placement.query.bad_value' });
    expect(malformed.body.errors[0].detail).toContain("Invalid as_of: 'yesterday'");
  });

  it('answers at the head exactly what the API answers now', async () => {
    const feed = (await get('/ledger/events?limit=1000')).body;
    const now: Snapshot['live'] = {};
    for (const [name, read] of Object.entries(reads)) {
      const answer = await get(read);
      now[name] = { status: answer.status, body: answer.body };
    }
    await expectSameAs(now, feed.next);
    expect(now.traits.body.traits).toEqual([]);
    expect(now.vm2.body).toEqual({ allocations: {} });
  });

  it('is guarded as the GET it mirrors: the service may read a provider as it was, neither a reader nor a member', async () => {
    const path = asOfPath('child', snapshot('claim').last.position);
    expect((await app.request('GET', path, { token: 'svc:service', headers: { 'x-roles': 'service' } })).status).toBe(200);
    const reader = await app.request('GET', path, { token: 'auditor:p', headers: { 'x-roles': 'reader' } });
    expect(reader.status).toBe(403);
    expect(reader.body.errors[0].detail).toContain('Policy does not allow placement:resource_providers:show to be performed.');
    expect((await app.request('GET', path, { token: 'bob:p', headers: { 'x-roles': 'member' } })).status).toBe(403);
  });
});
