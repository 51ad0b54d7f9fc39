import { randomUUID } from 'node:crypto';
import { UNDO_EXIT as EXIT } from '#placement-admin/undo-commands.js';
import { LOG_STORES, startTestApp, TestApp } from '../support/test-app.js';
import { undoFixture } from '../support/undo-fixture.js';

jest.setTimeout(90_000);

/**
 * Incident 1: a script deleted allocations in a loop over the wrong list. Each delete is
 * reverted (HTTP and CLI), or the project restored to before the loop, while a claim made
 * meanwhile by another project stays; a later write on a consumer makes its revert refuse and
 * name it; capacity taken since refuses the consumer that no longer fits.
 */
describe.each(LOG_STORES)('undo: allocations deleted in a loop (log in %s)', (store) => {
  let app: TestApp;
  const { ok, get, requestId, admin, verifyClean, moment, claim, held } = undoFixture(() => app, store);
  const compute = randomUUID();
  const vms = [randomUUID(), randomUUID(), randomUUID()].sort();
  const kept = randomUUID();
  const other = randomUUID();
  const project = 'proj-a';
  const before: Record<string, any> = {};
  const deletes: string[] = [];
  let beforeLoop = '';

  beforeAll(async () => {
    app = await startTestApp({}, store);
    await ok('POST', '/resource_providers', { name: 'compute-1', uuid: compute });
    await ok('PUT', `/resource_providers/${compute}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 10 } } });
    for (const vm of vms) await ok('PUT', `/allocations/${vm}`, claim({ [compute]: { VCPU: 2 } }, project, null));
    await ok('PUT', `/allocations/${kept}`, claim({ [compute]: { VCPU: 1 } }, project, null));
    for (const vm of vms) before[vm] = await get(`/allocations/${vm}`);
    beforeLoop = await moment();
    // The incident: the loop deletes the wrong consumers, one request each.
    for (const vm of vms) deletes.push(requestId(await ok('DELETE', `/allocations/${vm}`)));
    // Meanwhile, a correct write elsewhere: another project claims 4 of what the loop freed.
    await ok('PUT', `/allocations/${other}`, claim({ [compute]: { VCPU: 4 } }, 'proj-b', null));
  });
  afterAll(async () => app?.close());

  const revert = (body: unknown) => app.request('POST', '/ledger/revert', { body, version: '1.39' });

  it('plans the revert of one delete, refuses a missing or wrong hash, then applies exactly it', async () => {
    const plan = await revert({ request_id: deletes[0] });
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ kind: 'revert', status: 'ready', applied: false, conflicts: [] });
    expect(plan.body.streams.map((s: any) => s.stream).sort()).toEqual([`consumer-${vms[0]}`, `provider-${compute}`].sort());
    expect((await get(`/allocations/${vms[0]}`)).allocations).toEqual({});
    expect((await revert({ request_id: deletes[0], apply: true })).status).toBe(400);
    const drifted = await revert({ request_id: deletes[0], apply: true, plan_hash: '0'.repeat(32) });
    expect(drifted.status).toBe(409);
    expect(drifted.body.errors[0]).toMatchObject({ code: 'placement.concurrent_update', detail: expect.stringContaining('The plan changed') });
    const applied = await revert({ request_id: deletes[0], apply: true, plan_hash: plan.body.plan_hash });
    expect(applied.body).toMatchObject({ applied: true, status: 'ready' });
    const now = await get(`/allocations/${vms[0]}`);
    expect(held(now)).toEqual(held(before[vms[0]]));
    expect(now).toMatchObject({ project_id: project, user_id: 'u', consumer_type: 'INSTANCE' });
    // Generations only move forward: the restored consumer is past the one a client last saw.
    expect(now.consumer_generation).toBeGreaterThan(before[vms[0]].consumer_generation);
    expect((await get(`/allocations/${other}`)).allocations[compute].resources).toEqual({ VCPU: 4 });
    // The revert is a request of its own, attributed to the operator, in the consumer's history.
    const history = await get(`/ledger/consumers/${vms[0]}/history?order=desc&limit=1`);
    expect(history.events[0]).toMatchObject({ request_id: applied.body.request_id, operation: 'revert', user_id: 'admin' });
    expect(applied.body.request_id).not.toBe(deletes[0]);
    await verifyClean();
  });

  it('refuses a revert where a later write changed the stream, naming it, unless the stream is forced', async () => {
    const fix = await ok('PUT', `/allocations/${vms[1]}`, claim({ [compute]: { VCPU: 1 } }, project, null), 'fixer');
    const plan = await revert({ request_id: deletes[1] });
    expect(plan.body.status).toBe('refused');
    expect(plan.body.conflicts).toEqual([expect.objectContaining({ stream: `consumer-${vms[1]}`, request_id: requestId(fix), user_id: 'fixer' })]);
    const refused = await revert({ request_id: deletes[1], apply: true, plan_hash: plan.body.plan_hash });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toContain(requestId(fix));
    const forced = await revert({ request_id: deletes[1], force_streams: [`consumer-${vms[1]}`] });
    expect(forced.body).toMatchObject({ status: 'ready', conflicts: [], forced: [expect.objectContaining({ request_id: requestId(fix) })] });
    // Put back as the fixer left it, so the next arc sees the fixer's write.
    expect((await get(`/allocations/${vms[1]}`)).allocations[compute].resources).toEqual({ VCPU: 1 });
  });

  it('restores the project through the CLI: a consumer that no longer fits is refused and listed, the rest applied', async () => {
    // Free now: 10 - kept 1 - other 4 - vms[0] 2 - vms[1] (fixed) 1 = 2, so vms[1] back to 2 (+1) fits and vms[2] (+2) does not.
    const planned = await admin('restore', '--as-of', beforeLoop, '--project', project, '--json');
    expect(planned.code).toBe(EXIT.ok);
    const plan = JSON.parse(planned.out);
    const byStream = Object.fromEntries(plan.streams.map((s: any) => [s.stream, s]));
    expect(byStream[`consumer-${vms[2]}`].problems).toEqual([expect.stringContaining(`would over-commit VCPU on provider ${compute}`)]);
    expect(byStream[`consumer-${vms[2]}`].events).toEqual([]);
    expect(byStream[`consumer-${vms[1]}`].events).toHaveLength(1);
    expect(byStream[`consumer-${kept}`].events).toEqual([]);
    const applied = await admin('restore', '--as-of', beforeLoop, '--project', project, '--apply');
    expect(applied.code).toBe(EXIT.ok);
    expect(applied.out).toContain('REFUSED: would over-commit VCPU');
    expect(applied.out).toMatch(/applied as request req-/);
    expect(held(await get(`/allocations/${vms[1]}`))).toEqual(held(before[vms[1]]));
    expect((await get(`/allocations/${vms[2]}`)).allocations).toEqual({});
    expect((await get(`/resource_providers/${compute}/usages`)).usages).toEqual({ VCPU: 9 });
    await verifyClean();
  });

  it('reverts the revert: a revert is a request like any other', async () => {
    const audit = await get(`/ledger/consumers/${vms[1]}/history?order=desc&limit=1`);
    const restoreRequest = audit.events[0].request_id;
    const planned = await admin('revert', '--request', restoreRequest, '--apply');
    expect(planned.code).toBe(EXIT.ok);
    expect((await get(`/allocations/${vms[1]}`)).allocations[compute].resources).toEqual({ VCPU: 1 });
    await verifyClean();
  });

  it('answers bad input with a 4xx in upstream\'s shape and appends nothing', async () => {
    const head = (await get('/ledger/events?limit=1000')).events.length;
    for (const body of [{}, { request_id: 'req-nothing' }, { request_id: 7 }, { request_id: deletes[0], force_streams: 'x' }]) {
      const reply = await revert(body);
      expect([400, 404]).toContain(reply.status);
      expect(reply.body.errors[0]).toMatchObject({ status: reply.status, request_id: expect.any(String) });
    }
    for (const body of [{ as_of: 'yesterday', consumers: [vms[0]] }, { as_of: beforeLoop }, { as_of: beforeLoop, tree: true, consumers: [vms[0]] }, { as_of: beforeLoop, providers: ['nope'] }]) {
      expect((await app.request('POST', '/ledger/restore', { body })).status).toBe(400);
    }
    expect((await revert('not json')).status).toBe(400);
    expect((await admin('restore', '--project', project)).code).toBe(EXIT.usage);
    expect((await get('/ledger/events?limit=1000')).events.length).toBe(head);
  });
});
