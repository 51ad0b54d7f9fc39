import { randomUUID } from 'node:crypto';
import { UNDO_EXIT as EXIT } from '#placement-admin/undo-commands.js';
import { LOG_STORES, startTestApp, TestApp } from '../support/test-app.js';
import { undoFixture } from '../support/undo-fixture.js';

jest.setTimeout(90_000);

/**
 * Incident 4: a buggy reshape moved VGPU inventory, and the instance's VGPU with it, to the
 * wrong child. The reshape's request is reverted as a whole (both children, the consumer) in one
 * append; a later write of its own on one of those children refuses the revert, naming the write,
 * until that stream is forced.
 */
describe.each(LOG_STORES)('undo: a reshape that moved VGPU to the wrong child (log in %s)', (store) => {
  let app: TestApp;
  const { ok, get, requestId, admin, verifyClean, claim, held } = undoFixture(() => app, store);
  const root = randomUUID();
  const right = randomUUID();
  const wrong = randomUUID();
  const vm = randomUUID();
  const other = randomUUID();
  const reads = [`/resource_providers/${right}/inventories`, `/resource_providers/${wrong}/inventories`, `/resource_providers/${right}/usages`, `/resource_providers/${wrong}/usages`];
  const before: Record<string, any> = {};
  let reshape = '';
  let lateWrite = '';

  const generationOf = async (uuid: string) => (await get(`/resource_providers/${uuid}`)).generation;
  const withoutGeneration = (body: any) => ({ ...body, resource_provider_generation: undefined });

  beforeAll(async () => {
    app = await startTestApp({}, store);
    await ok('POST', '/resource_providers', { name: 'compute-1', uuid: root });
    await ok('POST', '/resource_providers', { name: 'compute-1_pgpu0', uuid: right, parent_provider_uuid: root });
    await ok('POST', '/resource_providers', { name: 'compute-1_pgpu1', uuid: wrong, parent_provider_uuid: root });
    await ok('PUT', `/resource_providers/${root}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 8 } } });
    await ok('PUT', `/resource_providers/${right}/inventories`, { resource_provider_generation: 0, inventories: { VGPU: { total: 4 } } });
    await ok('PUT', `/allocations/${vm}`, claim({ [root]: { VCPU: 2 }, [right]: { VGPU: 1 } }, 'p', null));
    for (const path of [...reads, `/allocations/${vm}`]) before[path] = await get(path);
    // The incident: the reshape moves the VGPU inventory and the instance's VGPU to the wrong child.
    const reply = await ok('POST', '/reshaper', {
      inventories: {
        [right]: { resource_provider_generation: await generationOf(right), inventories: {} },
        [wrong]: { resource_provider_generation: await generationOf(wrong), inventories: { VGPU: { total: 4 } } },
      },
      allocations: { [vm]: claim({ [root]: { VCPU: 2 }, [wrong]: { VGPU: 1 } }, 'p', 1) },
    });
    reshape = requestId(reply);
    // Meanwhile, another instance claims on the root: another stream's write, which stays.
    await ok('PUT', `/allocations/${other}`, claim({ [root]: { VCPU: 1 } }, 'p', null));
  });
  afterAll(async () => app?.close());

  it('refuses the revert while a later write of its own sits on the wrong child, naming it', async () => {
    await ok('PUT', '/traits/CUSTOM_GPU_CHECKED');
    lateWrite = requestId(await ok('PUT', `/resource_providers/${wrong}/traits`, { resource_provider_generation: await generationOf(wrong), traits: ['CUSTOM_GPU_CHECKED'] }, 'tracker'));
    const refused = await admin('revert', '--request', reshape);
    expect(refused.code).toBe(EXIT.refused);
    expect(refused.out).toContain(`CONFLICT: provider-${wrong} revision`);
    expect(refused.out).toContain(`by request ${lateWrite}, user tracker`);
    const applied = await admin('revert', '--request', reshape, '--apply');
    expect(applied.code).toBe(EXIT.refused);
  });

  it('reverts the reshape as a whole once that child is forced: inventories and the instance back where they were', async () => {
    const applied = await admin('revert', '--request', reshape, '--force-streams', `provider-${wrong}`, '--apply');
    expect(applied.err).toBe('');
    expect(applied.code).toBe(EXIT.ok);
    expect(applied.out).toContain(`forced: provider-${wrong}`);
    for (const path of reads) expect(withoutGeneration(await get(path))).toEqual(withoutGeneration(before[path]));
    expect(held(await get(`/allocations/${vm}`))).toEqual(held(before[`/allocations/${vm}`]));
    expect(held(await get(`/allocations/${other}`))).toEqual({ [root]: { VCPU: 1 } });
    // Forcing took the wrong child back whole: the trait written since went with it.
    expect((await get(`/resource_providers/${wrong}/traits`)).traits).toEqual([]);
    await verifyClean();
  });
});
