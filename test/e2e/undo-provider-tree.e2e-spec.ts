import { randomUUID } from 'node:crypto';
import { UNDO_EXIT as EXIT } from '#placement-admin/undo-commands.js';
import { LOG_STORES, startTestApp, TestApp } from '../support/test-app.js';
import { undoFixture } from '../support/undo-fixture.js';

jest.setTimeout(90_000);

/** A provider as GET shows it, without what only moves forward (generation) or is a timestamp. */
const shape = ({ generation, links, ...rest }: any) => rest;

/**
 * Incident 3: an operator deleted a compute node's provider tree while instances still ran on
 * it (their allocations removed first, as the API insists). The tree is restored with its
 * consumers through the CLI: same uuids, names, parents, inventories, traits, aggregates and
 * allocations. A name taken by another provider since refuses the provider, and its child and
 * consumers with it, until the name is free again.
 */
describe.each(LOG_STORES)('undo: a provider tree deleted under running instances (log in %s)', (store) => {
  let app: TestApp;
  const { ok, get, admin, verifyClean, moment, claim, held } = undoFixture(() => app, store);
  // The child's stream name sorts before its root's: the restore's one append must still record the root first.
  const root = `f${randomUUID().slice(1)}`;
  const child = `0${randomUUID().slice(1)}`;
  const aggregate = randomUUID();
  const vms = [randomUUID(), randomUUID()];
  const elsewhere = randomUUID();
  const vm3 = randomUUID();
  const reads = [
    `/resource_providers/${root}`, `/resource_providers/${child}`, `/resource_providers/${root}/inventories`, `/resource_providers/${child}/inventories`,
    `/resource_providers/${root}/traits`, `/resource_providers/${root}/aggregates`, `/resource_providers/${root}/usages`, `/resource_providers/${child}/usages`,
  ];
  const before: Record<string, any> = {};
  let beforeIncident = '';
  let impostor = '';

  const clean = (path: string, body: any) => (path.split('/').length === 3 ? shape(body) : { ...body, resource_provider_generation: undefined });

  beforeAll(async () => {
    app = await startTestApp({}, store);
    await ok('PUT', '/traits/CUSTOM_RACK_7');
    await ok('POST', '/resource_providers', { name: 'compute-1', uuid: root });
    await ok('POST', '/resource_providers', { name: 'compute-1_pgpu0', uuid: child, parent_provider_uuid: root });
    await ok('PUT', `/resource_providers/${root}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 4096 } } });
    await ok('PUT', `/resource_providers/${child}/inventories`, { resource_provider_generation: 0, inventories: { VGPU: { total: 4 } } });
    await ok('PUT', `/resource_providers/${root}/traits`, { resource_provider_generation: 1, traits: ['CUSTOM_RACK_7', 'HW_CPU_X86_AVX2'] });
    await ok('PUT', `/resource_providers/${root}/aggregates`, { resource_provider_generation: 2, aggregates: [aggregate] });
    await ok('PUT', `/allocations/${vms[0]}`, claim({ [root]: { VCPU: 2, MEMORY_MB: 1024 } }, 'p', null));
    await ok('PUT', `/allocations/${vms[1]}`, claim({ [root]: { VCPU: 2 }, [child]: { VGPU: 1 } }, 'p', null));
    for (const path of [...reads, ...vms.map((vm) => `/allocations/${vm}`)]) before[path] = await get(path);
    beforeIncident = await moment();
    for (const vm of vms) await ok('DELETE', `/allocations/${vm}`);
    await ok('DELETE', `/resource_providers/${child}`);
    await ok('DELETE', `/resource_providers/${root}`);
    // Meanwhile: a new node takes the old name, and an instance lands on another node.
    impostor = randomUUID();
    await ok('POST', '/resource_providers', { name: 'compute-1', uuid: impostor });
    await ok('POST', '/resource_providers', { name: 'compute-2', uuid: elsewhere });
    await ok('PUT', `/resource_providers/${elsewhere}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 8 } } });
    await ok('PUT', `/allocations/${vm3}`, claim({ [elsewhere]: { VCPU: 1 } }, 'p', null));
  });
  afterAll(async () => app?.close());

  it('refuses the root whose name another provider holds now, and with it the child and the consumers', async () => {
    const planned = await admin('restore', '--as-of', beforeIncident, '--provider', root, '--tree', '--json');
    expect(planned.code).toBe(EXIT.ok);
    const plan = JSON.parse(planned.out);
    const byStream = Object.fromEntries(plan.streams.map((s: any) => [s.stream, s]));
    expect(byStream[`provider-${root}`].problems).toEqual([`name "compute-1" is now held by provider ${impostor}`]);
    expect(byStream[`provider-${child}`].problems).toEqual([`parent provider ${root} no longer exists`]);
    for (const vm of vms) expect(byStream[`consumer-${vm}`].problems).toEqual(expect.arrayContaining([`provider ${root} no longer exists`]));
    expect(plan.status).toBe('nothing_to_do');
  });

  it('restores the tree and its instances once the name is free, every GET answering as before', async () => {
    await ok('DELETE', `/resource_providers/${impostor}`);
    const applied = await admin('restore', '--as-of', beforeIncident, '--provider', root, '--tree', '--apply');
    expect(applied.err).toBe('');
    expect(applied.code).toBe(EXIT.ok);
    expect(applied.out).toContain('+ ResourceProviderCreated');
    for (const path of reads) expect(clean(path, await get(path))).toEqual(clean(path, before[path]));
    for (const vm of vms) expect(held(await get(`/allocations/${vm}`))).toEqual(held(before[`/allocations/${vm}`]));
    expect(held(await get(`/allocations/${vm3}`))).toEqual({ [elsewhere]: { VCPU: 1 } });
    // The candidate index follows: the tree made again answers a search.
    const candidates = await get('/allocation_candidates?resources=VCPU:1,VGPU:1');
    expect(Object.keys(candidates.provider_summaries).sort()).toEqual([root, child].sort());
    // Generations move forward: the root comes back past the generation its stream had reached.
    expect((await get(`/resource_providers/${root}`)).generation).toBeGreaterThan(before[`/resource_providers/${root}`].generation);
    const history = await get(`/ledger/resource_providers/${root}/history?order=desc&limit=10`);
    expect(history.events.find((e: any) => e.type === 'ResourceProviderCreated')).toMatchObject({ operation: 'restore', user_id: 'admin' });
    await verifyClean();
  });

  it('reverts the restore: the tree and the allocations of its instances go again, children first, and the name is free', async () => {
    const history = await get(`/ledger/resource_providers/${child}/history?order=desc&limit=1`);
    const planned = await admin('revert', '--request', history.events[0].request_id, '--json');
    const plan = JSON.parse(planned.out);
    expect(plan.status).toBe('ready');
    expect(plan.streams.filter((s: any) => s.stream.startsWith('provider-')).map((s: any) => s.stream)).toEqual([`provider-${child}`, `provider-${root}`]);
    const applied = await admin('revert', '--request', history.events[0].request_id, '--apply');
    expect(applied.code).toBe(EXIT.ok);
    expect((await app.request('GET', `/resource_providers/${root}`)).status).toBe(404);
    expect((await app.request('GET', `/resource_providers/${child}`)).status).toBe(404);
    for (const vm of vms) expect(held(await get(`/allocations/${vm}`))).toEqual({});
    expect(held(await get(`/allocations/${vm3}`))).toEqual({ [elsewhere]: { VCPU: 1 } });
    await ok('POST', '/resource_providers', { name: 'compute-1', uuid: randomUUID() });
    await verifyClean();
  });
});
