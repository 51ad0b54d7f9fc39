import { randomUUID } from 'node:crypto';
import { LOG_STORES, startTestApp, TestApp } from '../support/test-app.js';

// The same arc over both log stores: every answer must be the same whichever keeps the log.
describe.each(LOG_STORES)('ledger: explain a candidates query (log in %s)', (logStore) => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp({}, logStore); });
  afterAll(async () => app.close());

  const aggregate = randomUUID();
  const [big, small, noAvx, outside, disk] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const vm = randomUUID();
  const QUERY = `resources=VCPU:4&required=HW_CPU_X86_AVX2&member_of=${aggregate}`;
  let beforeClaim: string;
  let timeBeforeClaim: string;

  const call = async (method: string, path: string, body?: object) => {
    const reply = await app.request(method, path, { version: 'latest', body });
    expect([method, path, reply.status < 300 ? true : reply.body]).toEqual([method, path, true]);
    return reply;
  };

  async function provider(uuid: string, inventories: object, traits: string[], aggregates: string[]) {
    await call('POST', '/resource_providers', { name: `explain-${uuid}`, uuid });
    let reply = await call('PUT', `/resource_providers/${uuid}/inventories`, { resource_provider_generation: 0, inventories });
    reply = await call('PUT', `/resource_providers/${uuid}/traits`, { resource_provider_generation: reply.body.resource_provider_generation, traits });
    return call('PUT', `/resource_providers/${uuid}/aggregates`, { resource_provider_generation: reply.body.resource_provider_generation, aggregates });
  }

  beforeAll(async () => {
    const vcpu = { VCPU: { total: 8 } };
    await provider(big, vcpu, ['HW_CPU_X86_AVX2'], [aggregate]);
    await provider(noAvx, vcpu, [], [aggregate]);
    await provider(outside, vcpu, ['HW_CPU_X86_AVX2'], []);
    await provider(disk, { DISK_GB: { total: 100 } }, ['HW_CPU_X86_AVX2'], [aggregate]);
    const last = await provider(small, vcpu, ['HW_CPU_X86_AVX2'], [aggregate]);
    const events = (await app.request('GET', `/ledger/audit/request/${last.headers.get('x-openstack-request-id')}`)).body.events;
    beforeClaim = events[events.length - 1].position;
    timeBeforeClaim = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await call('PUT', `/allocations/${vm}`, {
      allocations: { [small]: { resources: { VCPU: 6 } } }, project_id: 'p', user_id: 'u', consumer_generation: null, consumer_type: 'INSTANCE',
    });
  });

  const explain = (extra = '', version = 'latest') =>
    app.request('GET', `/ledger/explain/allocation_candidates?${QUERY}${extra}`, { version });

  const remaining = (body: any) => Object.fromEntries(body.groups[0].steps.map((s: any) => [s.step, s.remaining]));

  it('counts the providers each step leaves, and the candidates', async () => {
    const reply = await explain();
    expect(reply.status).toBe(200);
    expect(reply.body.as_of).toBeNull();
    expect(remaining(reply.body)).toEqual({ resources: 4, capacity: 3, traits: 2, aggregates: 1, in_tree: 1, root_required: 1 });
    expect(reply.body.candidates).toBe(1);
    expect(reply.body.search.find((s: any) => s.step === 'candidates').count).toBe(1);
    expect(reply.body.search.some((s: any) => s.step === 'aggregates' && s.group === '')).toBe(true);
    // The same query at GET /allocation_candidates agrees.
    const real = await app.request('GET', `/allocation_candidates?${QUERY}`, { version: 'latest' });
    expect(real.body.allocation_requests).toHaveLength(1);
  });

  it('says which step excluded a provider and why', async () => {
    const reasons = async (uuid: string) => (await explain(`&provider=${uuid}`)).body.provider.groups[0];
    expect(await reasons(small)).toEqual({
      suffix: '', in_candidates: false, left_out_by_combination: false,
      excluded_by: { step: 'capacity', reason: 'VCPU needs 4, 2 free (total 8, reserved 0, ratio 1.0, used 6)' },
    });
    expect((await reasons(noAvx)).excluded_by).toEqual({ step: 'traits', reason: 'lacks HW_CPU_X86_AVX2' });
    expect((await reasons(outside)).excluded_by).toEqual({ step: 'aggregates', reason: `in none of [${aggregate}]` });
    expect((await reasons(disk)).excluded_by).toEqual({ step: 'resources', reason: 'has no inventory of VCPU' });
    expect(await reasons(big)).toEqual({ suffix: '', in_candidates: true, excluded_by: null, left_out_by_combination: false });
  });

  it('answers as of a point before the claim, by position and by time', async () => {
    for (const asOf of [beforeClaim, timeBeforeClaim]) {
      const reply = await explain(`&provider=${small}&as_of=${encodeURIComponent(asOf)}`);
      expect(reply.status).toBe(200);
      expect(remaining(reply.body)).toEqual({ resources: 4, capacity: 4, traits: 3, aggregates: 2, in_tree: 2, root_required: 2 });
      expect(reply.body.candidates).toBe(2);
      expect(reply.body.provider.groups[0]).toEqual({ suffix: '', in_candidates: true, excluded_by: null, left_out_by_combination: false });
    }
  });

  it('explains each suffixed group apart, and the combination under group_policy', async () => {
    const path = `/ledger/explain/allocation_candidates?resources1=VCPU:4&required1=HW_CPU_X86_AVX2&resources2=VCPU:4&member_of2=${aggregate}`
      + `&group_policy=isolate&provider=${noAvx}`;
    const reply = await app.request('GET', path, { version: 'latest' });
    expect(reply.status).toBe(200);
    const bySuffix = Object.fromEntries(reply.body.groups.map((g: any) => [g.suffix, Object.fromEntries(g.steps.map((s: any) => [s.step, s.remaining]))]));
    expect(bySuffix['1']).toMatchObject({ resources: 4, capacity: 3, traits: 2, aggregates: 2 });
    expect(bySuffix['2']).toMatchObject({ resources: 4, capacity: 3, traits: 3, aggregates: 2 });
    // Each group has providers left, but every provider is its own tree and isolate forbids
    // big twice: the combination leaves nothing, as GET /allocation_candidates says.
    expect(reply.body.candidates).toBe(0);
    const real = await app.request('GET', path.replace('/ledger/explain', '').replace(/&provider=.*$/, ''), { version: 'latest' });
    expect(real.body.allocation_requests).toEqual([]);
    expect(reply.body.search.filter((s: any) => s.group === null).map((s: any) => [s.step, s.count]))
      .toContainEqual(['candidates', 0]);
    expect(reply.body.provider.groups).toEqual([
      { suffix: '1', in_candidates: false, excluded_by: { step: 'traits', reason: 'lacks HW_CPU_X86_AVX2' }, left_out_by_combination: false },
      { suffix: '2', in_candidates: false, excluded_by: null, left_out_by_combination: true },
    ]);
  });

  it('is guarded as GET /allocation_candidates: the service may ask, neither a reader nor a member', async () => {
    const ask = (token: string, roles: string) => app.request('GET', `/ledger/explain/allocation_candidates?${QUERY}`, { version: 'latest', token, headers: { 'x-roles': roles } });
    expect((await ask('svc:service', 'service')).status).toBe(200);
    const reader = await ask('auditor:proj-x', 'reader');
    expect(reader.status).toBe(403);
    expect(reader.body.errors[0].detail).toContain('Policy does not allow placement:allocation_candidates:list to be performed.');
    expect((await ask('bob:proj-x', 'member')).status).toBe(403);
  });

  it('refuses what GET /allocation_candidates refuses, and bad parameters of its own', async () => {
    expect((await explain('&provider=nope')).status).toBe(400);
    expect((await explain('&as_of=yesterday')).status).toBe(400);
    expect((await app.request('GET', '/ledger/explain/allocation_candidates?resources=VCPU:x', { version: 'latest' })).status).toBe(400);
    expect((await app.request('GET', '/ledger/explain/allocation_candidates?bogus=1', { version: 'latest' })).status).toBe(400);
    // The request's microversion rules: required= is not a parameter at 1.10.
    expect((await explain('', '1.10')).status).toBe(400);
  });
});

describe('ledger: explain over a wide tree, bounded as the search it explains', () => {
  let app: TestApp;
  let capped: TestApp;
  const WIDTH = 10;
  // One group per single-unit device, isolated: 10! candidates (upstream bugs 2070257, 2126751).
  const WIDE = `${Array.from({ length: WIDTH }, (_, i) => `resources${i + 1}=PCI_DEVICE:1`).join('&')}&group_policy=isolate`;

  async function wideTree(target: TestApp) {
    const root = randomUUID();
    const ok = async (method: string, path: string, body: object) => expect((await target.request(method, path, { version: 'latest', body })).status).toBeLessThan(300);
    await ok('POST', '/resource_providers', { name: `wide-${root}`, uuid: root });
    for (let i = 0; i < WIDTH; i++) {
      const device = randomUUID();
      await ok('POST', '/resource_providers', { name: `dev-${device}`, uuid: device, parent_provider_uuid: root });
      await ok('PUT', `/resource_providers/${device}/inventories`, { resource_provider_generation: 0, inventories: { PCI_DEVICE: { total: 1 } } });
    }
  }

  beforeAll(async () => {
    app = await startTestApp();
    // The search's own settings are read from the environment when its module starts.
    process.env.PLACEMENT_MAX_ALLOCATION_CANDIDATES = '500';
    try {
      capped = await startTestApp();
    } finally {
      delete process.env.PLACEMENT_MAX_ALLOCATION_CANDIDATES;
    }
    await wideTree(app);
    await wideTree(capped);
  });
  afterAll(async () => {
    await app?.close();
    await capped?.close();
  });

  // Which bound comes first depends on the machine's speed (a fast idle one reaches the answer
  // ceiling within the budget); the unit spec pins each bound alone with a deadline already past.
  it('stops at a bound and says which, where the whole answer would take minutes', async () => {
    const started = Date.now();
    const reply = await app.request('GET', `/ledger/explain/allocation_candidates?${WIDE}`, { version: 'latest' });
    expect(reply.status).toBe(200);
    expect(['time_budget', 'max_allocation_candidates']).toContain(reply.body.stopped_by);
    expect(reply.body.candidates).toBeLessThan(3628800);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('generates no more than max_allocation_candidates, and says so', async () => {
    const reply = await capped.request('GET', `/ledger/explain/allocation_candidates?${WIDE}`, { version: 'latest' });
    expect(reply.body).toMatchObject({ candidates: 500, stopped_by: 'max_allocation_candidates' });
    const narrow = await capped.request('GET', '/ledger/explain/allocation_candidates?resources=PCI_DEVICE:1', { version: 'latest' });
    expect(narrow.body).toMatchObject({ candidates: WIDTH, stopped_by: null });
  });
});
