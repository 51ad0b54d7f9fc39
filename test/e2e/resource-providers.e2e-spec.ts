import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

const HTTP_DATE = /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const AGG_1 = '3b1e6ad2-8d0e-4a7a-9f0e-3d7f7c2f0a11';
const AGG_2 = '3b1e6ad2-8d0e-4a7a-9f0e-3d7f7c2f0a22';

describe('resource providers: /resource_providers', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  const url = (uuid: string) => `/resource_providers/${uuid}`;
  async function create(name: string, parent?: string): Promise<string> {
    const uuid = randomUUID();
    const body = parent ? { name, uuid, parent_provider_uuid: parent } : { name, uuid };
    const reply = await app.request('POST', '/resource_providers', { version: '1.20', body });
    expect(reply.status).toBe(200);
    return uuid;
  }
  const show = async (uuid: string) => (await app.request('GET', url(uuid), { version: '1.39' })).body;
  const listed = async (query: string, version = '1.39') => {
    const reply = await app.request('GET', `/resource_providers?${query}`, { version });
    expect(reply.status).toBe(200);
    return (reply.body.resource_providers as { name: string }[]).map((p) => p.name).sort();
  };
  const detailOf = async (method: string, path: string, version: string, body?: unknown) => {
    const reply = await app.request(method, path, { version, body });
    return { status: reply.status, detail: reply.body?.errors?.[0]?.detail as string, code: reply.body?.errors?.[0]?.code };
  };

  describe('creating', () => {
    it('answers 201 and a Location before 1.20, the provider with caching headers from 1.20', async () => {
      const uuid = randomUUID();
      const old = await app.request('POST', '/resource_providers', { version: '1.19', body: { name: 'old-style', uuid } });
      expect(old.status).toBe(201);
      expect(old.text).toBe('');
      expect(old.headers.get('location')).toBe(`${app.baseUrl}${url(uuid)}`);

      const reply = await app.request('POST', '/resource_providers', { version: '1.20', body: { name: 'new-style' } });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ name: 'new-style', generation: 0, parent_provider_uuid: null });
      expect(reply.body.root_provider_uuid).toBe(reply.body.uuid);
      expect(reply.headers.get('location')).toBe(`${app.baseUrl}${url(reply.body.uuid)}`);
      expect(reply.headers.get('last-modified')).toMatch(HTTP_DATE);
      expect(reply.headers.get('cache-control')).toBe('no-cache');
    });

    it('normalises its own uuid but looks the parent up exactly as sent', async () => {
      const parent = await create('norm-parent');
      const hex = randomUUID();
      const reply = await app.request('POST', '/resource_providers', {
        version: '1.20', body: { name: 'norm-child', uuid: `{${hex.replace(/-/g, '').toUpperCase()}}`, parent_provider_uuid: parent },
      });
      expect(reply.body).toMatchObject({ uuid: hex, parent_provider_uuid: parent, root_provider_uuid: parent });
      const undashed = await detailOf('POST', '/resource_providers', '1.20', { name: 'x', parent_provider_uuid: parent.replace(/-/g, '') });
      expect(undashed.status).toBe(400);
      expect(undashed.detail).toContain('Object action create failed because: parent provider UUID does not exist.');
    });

    it('refuses duplicates with upstream codes, the name reported first', async () => {
      const uuid = await create('dup-name');
      expect(await detailOf('POST', '/resource_providers', '1.23', { name: 'dup-name' })).toMatchObject({
        status: 409, code: 'placement.duplicate_name', detail: expect.stringContaining('Conflicting resource provider name: dup-name already exists.'),
      });
      expect((await detailOf('POST', '/resource_providers', '1.23', { name: 'other', uuid })).detail)
        .toContain(`Conflicting resource provider uuid: ${uuid} already exists.`);
      expect((await detailOf('POST', '/resource_providers', '1.23', { name: 'dup-name', uuid })).detail)
        .toContain('Conflicting resource provider name: dup-name already exists.');
    });

    it('refuses an empty name, a bad body and parents that cannot be', async () => {
      expect((await detailOf('POST', '/resource_providers', '1.20', { name: '' })).detail).toContain('Object action create failed because: name is required');
      expect((await detailOf('POST', '/resource_providers', '1.20', { name: 'x'.repeat(201) })).detail).toContain('is too long');
      expect((await detailOf('POST', '/resource_providers', '1.13', { name: 'x', parent_provider_uuid: null })).detail)
        .toContain("Additional properties are not allowed ('parent_provider_uuid' was unexpected)");
      const uuid = randomUUID();
      expect((await detailOf('POST', '/resource_providers', '1.14', { name: 'self', uuid, parent_provider_uuid: uuid })).detail)
        .toContain('parent provider UUID cannot be same as UUID.');
      expect(await listed('name=self')).toEqual([]);
    });
  });

  describe('showing', () => {
    it('adds links and tree fields by microversion, and 404s for a stranger', async () => {
      const uuid = await create('links');
      const rels = async (version: string) =>
        (await app.request('GET', url(uuid), { version })).body.links.map((l: { rel: string }) => l.rel);
      expect(await rels('1.0')).toEqual(['self', 'inventories', 'usages']);
      expect(await rels('1.1')).toEqual(['self', 'inventories', 'usages', 'aggregates']);
      expect(await rels('1.6')).toEqual(['self', 'inventories', 'usages', 'aggregates', 'traits']);
      expect(await rels('1.11')).toEqual(['self', 'inventories', 'usages', 'aggregates', 'traits', 'allocations']);
      const v13 = await app.request('GET', url(uuid), { version: '1.13' });
      expect(v13.body.parent_provider_uuid).toBeUndefined();
      expect(v13.headers.get('last-modified')).toBeNull();
      const v15 = await app.request('GET', url(uuid), { version: '1.15' });
      expect(v15.body).toMatchObject({ parent_provider_uuid: null, root_provider_uuid: uuid });
      expect(v15.headers.get('last-modified')).toMatch(HTTP_DATE);
      // Clients compare it exactly, as upstream sends it: no charset.
      expect(v15.headers.get('content-type')).toBe('application/json');
      const missing = randomUUID();
      expect(await detailOf('GET', url(missing), '1.0')).toMatchObject({ status: 404, detail: expect.stringContaining(`No resource provider with uuid ${missing} found`) });
    });
  });

  describe('updating', () => {
    it('renames without moving the generation, and refuses a name that is taken', async () => {
      const uuid = await create('rename-me');
      await create('taken');
      const reply = await app.request('PUT', url(uuid), { version: '1.15', body: { name: 'renamed' } });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ name: 'renamed', generation: 0 });
      expect(reply.headers.get('last-modified')).toMatch(HTTP_DATE);
      expect(await detailOf('PUT', url(uuid), '1.23', { name: 'taken' })).toMatchObject({
        status: 409, code: 'placement.duplicate_name', detail: expect.stringContaining('Conflicting resource provider taken already exists.'),
      });
      expect((await show(uuid)).name).toBe('renamed');
    });

    it('404s for a missing provider before it reads the body', async () => {
      expect((await app.request('PUT', url(randomUUID()), { version: '1.14', body: 'not json' })).status).toBe(404);
    });

    it('gives a root a parent at any version but moves or drops a parent only from 1.37', async () => {
      const a = await create('tree-a');
      const b = await create('tree-b');
      const child = await create('tree-child');
      const grandchild = await create('tree-grandchild', child);
      expect((await app.request('PUT', url(child), { version: '1.14', body: { name: 'tree-child', parent_provider_uuid: a } })).status).toBe(200);
      expect((await show(grandchild)).root_provider_uuid).toBe(a);

      expect((await detailOf('PUT', url(child), '1.36', { name: 'tree-child', parent_provider_uuid: b })).detail)
        .toContain('Object action update failed because: re-parenting a provider is not currently allowed.');
      expect((await detailOf('PUT', url(child), '1.36', { name: 'tree-child', parent_provider_uuid: null })).detail)
        .toContain('Object action update failed because: un-parenting a provider is not currently allowed.');

      const moved = await app.request('PUT', url(child), { version: '1.37', body: { name: 'tree-child', parent_provider_uuid: b } });
      expect(moved.body).toMatchObject({ parent_provider_uuid: b, root_provider_uuid: b, generation: 0 });
      expect(await listed(`in_tree=${b}`)).toEqual(['tree-b', 'tree-child', 'tree-grandchild']);
      expect(await listed(`in_tree=${a}`)).toEqual(['tree-a']);

      const freed = await app.request('PUT', url(child), { version: '1.37', body: { name: 'tree-child', parent_provider_uuid: null } });
      expect(freed.body).toMatchObject({ parent_provider_uuid: null, root_provider_uuid: child });
      expect((await show(grandchild)).root_provider_uuid).toBe(child);
    });

    it('refuses loops and missing parents, naming upstream actions', async () => {
      const top = await create('loop-top');
      const below = await create('loop-below', top);
      expect((await detailOf('PUT', url(top), '1.37', { name: 'loop-top', parent_provider_uuid: below })).detail)
        .toContain(`Unable to save resource provider ${top}: Object action update failed because: creating loop in the provider tree is not allowed.`);
      expect((await detailOf('PUT', url(top), '1.37', { name: 'loop-top', parent_provider_uuid: top })).detail)
        .toContain('creating loop in the provider tree is not allowed.');
      expect((await detailOf('PUT', url(top), '1.37', { name: 'loop-top', parent_provider_uuid: randomUUID() })).detail)
        .toContain('Object action create failed because: parent provider UUID does not exist.');
      expect((await show(top)).parent_provider_uuid).toBeNull();
    });
  });

  describe('deleting', () => {
    it('refuses a parent, then deletes leaf first, then 404s', async () => {
      const parent = await create('del-parent');
      const child = await create('del-child', parent);
      expect(await detailOf('DELETE', url(parent), '1.23')).toMatchObject({
        status: 409, code: 'placement.resource_provider.cannot_delete_parent',
        detail: expect.stringContaining(`Unable to delete parent resource provider ${parent}: It has child resource providers.`),
      });
      expect((await app.request('DELETE', url(child))).status).toBe(204);
      expect((await app.request('DELETE', url(parent))).status).toBe(204);
      expect((await detailOf('DELETE', url(parent), '1.0')).detail).toContain(`No resource provider with uuid ${parent} found for delete`);
      expect((await app.request('GET', url(parent))).status).toBe(404);
      expect(await create('del-parent')).toBeDefined();
    });
  });

  describe('listing with filters', () => {
    const tree: Record<string, string> = {};
    const A = 'CUSTOM_RPLIST_A';
    const B = 'CUSTOM_RPLIST_B';
    const generation = async (uuid: string) => (await show(uuid)).generation;
    async function put(path: string, uuid: string, version: string, body: Record<string, unknown>) {
      const reply = await app.request('PUT', `${url(uuid)}/${path}`, { version, body: { ...body, resource_provider_generation: await generation(uuid) } });
      expect(reply.status).toBe(200);
    }

    // root (AGG_2) -> c1 (AGG_1, A, VCPU and DISK_GB) -> g1 (B); root -> c2 (AGG_1 and AGG_2, A and B, VCPU)
    beforeAll(async () => {
      for (const trait of [A, B]) expect([201, 204]).toContain((await app.request('PUT', `/traits/${trait}`, { version: '1.6' })).status);
      tree.root = await create('list-root');
      tree.c1 = await create('list-c1', tree.root);
      tree.c2 = await create('list-c2', tree.root);
      tree.g1 = await create('list-g1', tree.c1);
      await put('traits', tree.c1, '1.6', { traits: [A] });
      await put('traits', tree.c2, '1.6', { traits: [A, B] });
      await put('traits', tree.g1, '1.6', { traits: [B] });
      await put('aggregates', tree.root, '1.19', { aggregates: [AGG_2] });
      await put('aggregates', tree.c1, '1.19', { aggregates: [AGG_1] });
      await put('aggregates', tree.c2, '1.19', { aggregates: [AGG_1, AGG_2] });
      await put('inventories', tree.c1, '1.19', { inventories: {
        VCPU: { total: 8, reserved: 2, allocation_ratio: 1.5 },
        DISK_GB: { total: 100, min_unit: 10, max_unit: 50, step_size: 5 },
      } });
      await put('inventories', tree.c2, '1.19', { inventories: { VCPU: { total: 4 } } });
    });
    const inTree = (query: string) => listed(`in_tree=${tree.root}&${query}`);

    it('validates the query string against the microversion', async () => {
      for (const [query, version, key] of [
        ['member_of=x', '1.2', 'member_of'], ['resources=VCPU:1', '1.3', 'resources'],
        ['in_tree=x', '1.13', 'in_tree'], ['required=A', '1.17', 'required'], ['pony=1', '1.39', 'pony'],
      ]) {
        const { status, detail } = await detailOf('GET', `/resource_providers?${query}`, version);
        expect(status).toBe(400);
        expect(detail).toContain(`Invalid query string parameters: Additional properties are not allowed ('${key}' was unexpected)`);
      }
      expect((await detailOf('GET', '/resource_providers?uuid=nope', '1.0')).detail).toContain("Invalid query string parameters: 'nope' is not a 'uuid'");
      expect((await detailOf('GET', '/resource_providers?name=%ff', '1.0')).detail)
        .toContain("Invalid query string parameters: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte");
      // webob also splits pairs on ';'.
      expect(await listed(`name=list-c2;uuid=${tree.c2}`)).toEqual(['list-c2']);
      expect((await detailOf('GET', '/resource_providers?name=x;pony=1', '1.39')).detail).toContain("'pony' was unexpected");
    });

    it('filters by name, uuid and tree; an empty name filters nothing', async () => {
      expect(await listed('name=list-c2')).toEqual(['list-c2']);
      expect(await listed(`uuid=${tree.g1}`)).toEqual(['list-g1']);
      expect(await inTree('name=')).toEqual(['list-c1', 'list-c2', 'list-g1', 'list-root']);
      expect(await listed(`in_tree=${tree.g1}`, '1.14')).toEqual(['list-c1', 'list-c2', 'list-g1', 'list-root']);
      expect(await listed(`in_tree=${randomUUID()}`)).toEqual([]);
    });

    it('filters by aggregates in every member_of form', async () => {
      expect(await inTree(`member_of=${AGG_1}`)).toEqual(['list-c1', 'list-c2']);
      expect(await inTree(`member_of=in:${AGG_1},${AGG_2}`)).toEqual(['list-c1', 'list-c2', 'list-root']);
      expect(await inTree(`member_of=${AGG_1}&member_of=${AGG_2}`)).toEqual(['list-c2']);
      expect(await inTree(`member_of=!${AGG_1}`)).toEqual(['list-g1', 'list-root']);
      expect(await inTree(`member_of=!in:${AGG_1},${AGG_2}`)).toEqual(['list-g1']);
      expect((await detailOf('GET', `/resource_providers?member_of=${AGG_1}&member_of=${AGG_2}`, '1.23')).detail)
        .toContain('Multiple member_of parameters are not supported');
      expect((await detailOf('GET', `/resource_providers?member_of=!${AGG_1}`, '1.31')).detail)
        .toContain('Forbidden member_of parameters are not supported in the specified microversion');
    });

    it('filters by required, forbidden and any-of traits', async () => {
      expect(await inTree(`required=${A}`)).toEqual(['list-c1', 'list-c2']);
      expect(await inTree(`required=${A},${B}`)).toEqual(['list-c2']);
      expect(await inTree(`required=!${A}`)).toEqual(['list-g1', 'list-root']);
      expect(await inTree(`required=in:${A},${B}&required=!${A}`)).toEqual(['list-g1']);
      expect(await listed(`in_tree=${tree.root}&required=${A}&required=${B}`, '1.38')).toEqual(['list-c2', 'list-g1']);
      expect((await detailOf('GET', `/resource_providers?required=!${A}`, '1.21')).status).toBe(400);
      expect((await detailOf('GET', `/resource_providers?required=in:${A},${B}`, '1.38')).detail)
        .toContain("The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' only supported since microversion 1.39.");
      expect((await detailOf('GET', '/resource_providers?required=CUSTOM_NOBODY', '1.18')).detail)
        .toContain('Invalid trait(s) in "required" parameter: No such trait(s): CUSTOM_NOBODY.');
      // Upstream looks the tree up first: a missing tree answers an empty list, not the unknown trait.
      expect(await listed(`in_tree=${randomUUID()}&required=CUSTOM_NOBODY`)).toEqual([]);
    });

    it('filters by free capacity and unit rules', async () => {
      expect(await inTree('resources=VCPU:9')).toEqual(['list-c1']);
      expect(await inTree('resources=VCPU:4')).toEqual(['list-c1', 'list-c2']);
      expect(await inTree('resources=VCPU:10')).toEqual([]);
      expect(await inTree('resources=DISK_GB:15')).toEqual(['list-c1']);
      expect(await inTree('resources=DISK_GB:12')).toEqual([]);
      expect(await inTree('resources=DISK_GB:5')).toEqual([]);
      expect(await inTree('resources=DISK_GB:55')).toEqual([]);
      expect(await inTree(`resources=VCPU:1&member_of=${AGG_2}`)).toEqual(['list-c2']);
      expect((await detailOf('GET', '/resource_providers?resources=CUSTOM_NOPE:1', '1.4')).detail)
        .toContain('Invalid resource class in resources parameter: No such resource class CUSTOM_NOPE.');
      expect((await detailOf('GET', '/resource_providers?resources=VCPU:0', '1.4')).detail)
        .toContain('Requested resource VCPU requires amount >= 1. Got: 0.');
    });

    it('counts what consumers already use, and will not delete a provider in use', async () => {
      const consumer = randomUUID();
      const claim = await app.request('PUT', `/allocations/${consumer}`, { version: '1.28', body: {
        allocations: { [tree.c1]: { resources: { VCPU: 4 } } }, project_id: 'p', user_id: 'u', consumer_generation: null,
      } });
      expect(claim.status).toBe(204);
      // c1 holds (8 - 2) * 1.5 = 9 VCPU, 4 of them now used.
      expect(await inTree('resources=VCPU:6')).toEqual([]);
      expect(await inTree('resources=VCPU:5')).toEqual(['list-c1']);
      const leaf = await create('in-use');
      await put('inventories', leaf, '1.19', { inventories: { VCPU: { total: 1 } } });
      const other = randomUUID();
      expect((await app.request('PUT', `/allocations/${other}`, { version: '1.28', body: {
        allocations: { [leaf]: { resources: { VCPU: 1 } } }, project_id: 'p', user_id: 'u', consumer_generation: null,
      } })).status).toBe(204);
      expect(await detailOf('DELETE', url(leaf), '1.23')).toMatchObject({
        status: 409, code: 'placement.resource_provider.inuse',
        detail: expect.stringContaining(`Unable to delete resource provider ${leaf}: Resource provider has allocations.`),
      });
      expect((await app.request('DELETE', `/allocations/${other}`)).status).toBe(204);
      expect((await app.request('DELETE', url(leaf))).status).toBe(204);
      expect((await app.request('DELETE', `/allocations/${consumer}`)).status).toBe(204);
      expect(await inTree('resources=VCPU:9')).toEqual(['list-c1']);
    });

    it('says when the newest listed provider changed, from 1.15', async () => {
      const old = await app.request('GET', '/resource_providers', { version: '1.14' });
      expect(old.headers.get('last-modified')).toBeNull();
      const empty = await app.request('GET', `/resource_providers?name=${randomUUID()}`, { version: '1.15' });
      expect(empty.body).toEqual({ resource_providers: [] });
      expect(empty.headers.get('last-modified')).toMatch(HTTP_DATE);
      expect(empty.headers.get('cache-control')).toBe('no-cache');
    });
  });
});
