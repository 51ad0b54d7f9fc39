import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

const LATEST = '1.39';
const HTTP_DATE = /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const INVALID = 'The trait is invalid. A valid trait must be no longer than 255 characters';

describe('traits', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  const list = async (query = '') => {
    const reply = await app.request('GET', `/traits${query}`, { version: LATEST });
    expect(reply.status).toBe(200);
    return reply.body.traits as string[];
  };
  const newProvider = async () => {
    const uuid = randomUUID();
    expect((await app.request('POST', '/resource_providers', { version: LATEST, body: { name: `rp-${uuid}`, uuid } })).status).toBe(200);
    return uuid;
  };
  const setTraits = (uuid: string, traits: string[], generation: number, version = LATEST) =>
    app.request('PUT', `/resource_providers/${uuid}/traits`, { version, body: { traits, resource_provider_generation: generation } });

  it('is not there below 1.6', async () => {
    for (const [method, path] of [['GET', '/traits'], ['GET', '/traits/CUSTOM_A'], ['PUT', '/traits/CUSTOM_A'], ['DELETE', '/traits/CUSTOM_A'],
      ['GET', `/resource_providers/${randomUUID()}/traits`], ['DELETE', `/resource_providers/${randomUUID()}/traits`]]) {
      expect((await app.request(method, path, { version: '1.5' })).status).toBe(404);
    }
  });

  describe('/traits', () => {
    it('creates a custom trait: 201, then 204, with a Location and no body', async () => {
      const first = await app.request('PUT', '/traits/CUSTOM_TRAIT_1', { version: '1.6' });
      expect(first.status).toBe(201);
      expect(first.headers.get('location')).toBe(`${app.baseUrl}/traits/CUSTOM_TRAIT_1`);
      expect(first.headers.get('content-type')).toBeNull();
      expect(first.headers.get('last-modified')).toBeNull();
      const second = await app.request('PUT', '/traits/CUSTOM_TRAIT_1', { version: '1.15' });
      expect(second.status).toBe(204);
      expect(second.headers.get('last-modified')).toMatch(HTTP_DATE);
      expect((await app.request('GET', '/traits/CUSTOM_TRAIT_1', { version: '1.6' })).status).toBe(204);
      expect((await app.request('GET', '/traits/CUSTOM_TRAIT_1', { version: '1.15' })).headers.get('last-modified')).toMatch(HTTP_DATE);
    });

    it('refuses names that are not custom or too long, creating nothing', async () => {
      for (const name of ['TRAIT_X', 'CUSTOM_ABC:1', `CUSTOM_${'A'.repeat(249)}`, 'HW_CPU_X86_SSE']) {
        const reply = await app.request('PUT', `/traits/${name}`, { version: LATEST });
        expect(reply.status).toBe(400);
        expect(reply.body.errors[0].detail).toContain(INVALID);
      }
      expect(await list('?name=startswith:TRAIT_X')).toEqual([]);
    });

    it('lists standard and custom traits, filtered by name=in:, name=startswith: and associated', async () => {
      await app.request('PUT', '/traits/CUSTOM_TRAIT_2', { version: LATEST });
      await app.request('PUT', '/traits/CUSTOM_OTHER', { version: LATEST });
      const all = await list();
      expect(all).toEqual(expect.arrayContaining(['CUSTOM_TRAIT_1', 'CUSTOM_TRAIT_2', 'MISC_SHARES_VIA_AGGREGATE', 'HW_CPU_X86_SHA']));
      expect(await list('?name=in:CUSTOM_TRAIT_1,HW_CPU_X86_SHA,NOPE')).toEqual(expect.arrayContaining(['CUSTOM_TRAIT_1', 'HW_CPU_X86_SHA']));
      expect(await list('?name=in:CUSTOM_TRAIT_1,HW_CPU_X86_SHA,NOPE')).toHaveLength(2);
      expect((await list('?name=startswith:CUSTOM_TRAIT')).sort()).toEqual(['CUSTOM_TRAIT_1', 'CUSTOM_TRAIT_2']);
      // An operator upstream does not know filters nothing.
      expect(await list('?name=unknown:CUSTOM_TRAIT')).toHaveLength(all.length);
      expect(await list('?associated=true')).toEqual([]);
      expect(await list('?associated=FALSE&name=startswith:CUSTOM_')).toHaveLength(3);
    });

    it('refuses bad query strings with upstream messages', async () => {
      const badName = await app.request('GET', '/traits?name=in_abc', { version: LATEST });
      expect(badName.status).toBe(400);
      expect(badName.body.errors[0].detail).toContain(
        'Badly formatted name parameter. Expected name query string parameter in form: ?name=[in|startswith]:[name1,name2|prefix]. Got: "in_abc"');
      const badAssociated = await app.request('GET', '/traits?associated=xyz', { version: LATEST });
      expect(badAssociated.status).toBe(400);
      expect(badAssociated.body.errors[0].detail).toContain('The query parameter "associated" only accepts "true" or "false"');
      const unknown = await app.request('GET', '/traits?invalid=abc', { version: LATEST });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0].detail).toContain('Invalid query string parameters: Additional properties are not allowed');
    });

    it('says when the list last changed from 1.15 only', async () => {
      expect((await app.request('GET', '/traits', { version: '1.14' })).headers.get('last-modified')).toBeNull();
      const reply = await app.request('GET', '/traits', { version: '1.15' });
      expect(reply.headers.get('last-modified')).toMatch(HTTP_DATE);
      expect(reply.headers.get('cache-control')).toBe('no-cache');
    });

    it('deletes a custom trait; 404 when missing, 400 for a standard one', async () => {
      await app.request('PUT', '/traits/CUSTOM_BYE', { version: LATEST });
      const deleted = await app.request('DELETE', '/traits/CUSTOM_BYE', { version: LATEST });
      expect(deleted.status).toBe(204);
      expect(deleted.headers.get('content-type')).toBeNull();
      expect((await app.request('GET', '/traits/CUSTOM_BYE', { version: LATEST })).status).toBe(404);
      const missing = await app.request('DELETE', '/traits/CUSTOM_BYE', { version: LATEST });
      expect(missing.status).toBe(404);
      expect(missing.body.errors[0].detail).toContain('No such trait(s): CUSTOM_BYE.');
      const standard = await app.request('DELETE', '/traits/HW_CPU_X86_SSE', { version: LATEST });
      expect(standard.status).toBe(400);
      expect(standard.body.errors[0].detail).toContain('Cannot delete standard trait HW_CPU_X86_SSE.');
      expect((await app.request('PUT', '/traits/CUSTOM_BYE', { version: LATEST })).status).toBe(201);
    });
  });

  describe('/resource_providers/{uuid}/traits', () => {
    it('starts empty at generation 0', async () => {
      const uuid = await newProvider();
      const reply = await app.request('GET', `/resource_providers/${uuid}/traits`, { version: '1.6' });
      expect(reply.body).toEqual({ traits: [], resource_provider_generation: 0 });
      expect(reply.headers.get('last-modified')).toBeNull();
    });

    it('sets traits, moving the generation only on a real change', async () => {
      const uuid = await newProvider();
      const set = await setTraits(uuid, ['CUSTOM_TRAIT_1', 'HW_CPU_X86_SSE', 'CUSTOM_TRAIT_1'], 0, '1.15');
      expect(set.status).toBe(200);
      expect(set.body.resource_provider_generation).toBe(1);
      expect([...set.body.traits].sort()).toEqual(['CUSTOM_TRAIT_1', 'HW_CPU_X86_SSE']);
      expect(set.headers.get('last-modified')).toMatch(HTTP_DATE);
      const same = await setTraits(uuid, ['HW_CPU_X86_SSE', 'CUSTOM_TRAIT_1'], 1);
      expect(same.body.resource_provider_generation).toBe(1);
      const read = await app.request('GET', `/resource_providers/${uuid}/traits`, { version: '1.15' });
      expect(read.body.resource_provider_generation).toBe(1);
      expect([...read.body.traits].sort()).toEqual(['CUSTOM_TRAIT_1', 'HW_CPU_X86_SSE']);
      expect(read.headers.get('last-modified')).toMatch(HTTP_DATE);
      expect(await list('?associated=true&name=in:CUSTOM_TRAIT_1,CUSTOM_TRAIT_2')).toEqual(['CUSTOM_TRAIT_1']);
    });

    it('refuses a stale generation, unknown traits and bad bodies, changing nothing', async () => {
      const uuid = await newProvider();
      await setTraits(uuid, ['CUSTOM_TRAIT_2'], 0);
      const stale = await setTraits(uuid, ['CUSTOM_TRAIT_1'], 0, '1.23');
      expect(stale.status).toBe(409);
      expect(stale.body.errors[0]).toMatchObject({ code: 'placement.concurrent_update' });
      expect(stale.body.errors[0].detail).toContain("Resource provider's generation already changed. Please update the generation and try again.");
      const unknown = await setTraits(uuid, ['NON_EXISTED_2', 'NON_EXISTED_1', 'CUSTOM_TRAIT_1'], 1);
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0].detail).toContain('No such trait NON_EXISTED_1, NON_EXISTED_2');
      const noGeneration = await app.request('PUT', `/resource_providers/${uuid}/traits`, { version: LATEST, body: { traits: [] } });
      expect(noGeneration.text).toContain("'resource_provider_generation' is a required property");
      const notArray = await app.request('PUT', `/resource_providers/${uuid}/traits`, {
        version: LATEST, body: { traits: 'invalid_type', resource_provider_generation: 1 },
      });
      expect(notArray.text).toContain("'invalid_type' is not of type 'array'");
      const extra = await app.request('PUT', `/resource_providers/${uuid}/traits`, {
        version: LATEST, body: { traits: [], resource_provider_generation: 1, additional: 1 },
      });
      expect(extra.text).toContain('Additional properties are not allowed');
      const read = await app.request('GET', `/resource_providers/${uuid}/traits`, { version: LATEST });
      expect(read.body).toEqual({ traits: ['CUSTOM_TRAIT_2'], resource_provider_generation: 1 });
    });

    it('keeps a trait a provider has from being deleted', async () => {
      const uuid = await newProvider();
      await app.request('PUT', '/traits/CUSTOM_HELD', { version: LATEST });
      await setTraits(uuid, ['CUSTOM_HELD'], 0);
      const reply = await app.request('DELETE', '/traits/CUSTOM_HELD', { version: LATEST });
      expect(reply.status).toBe(409);
      expect(reply.body.errors[0].detail).toContain('The trait CUSTOM_HELD is in use by a resource provider.');
      expect((await app.request('GET', '/traits/CUSTOM_HELD', { version: LATEST })).status).toBe(204);
    });

    it('deletes all traits, moving the generation once', async () => {
      const uuid = await newProvider();
      await setTraits(uuid, ['CUSTOM_TRAIT_1', 'CUSTOM_TRAIT_2'], 0);
      const deleted = await app.request('DELETE', `/resource_providers/${uuid}/traits`, { version: LATEST });
      expect(deleted.status).toBe(204);
      expect(deleted.headers.get('content-type')).toBeNull();
      expect((await app.request('GET', `/resource_providers/${uuid}/traits`, { version: LATEST })).body)
        .toEqual({ traits: [], resource_provider_generation: 2 });
      await app.request('DELETE', `/resource_providers/${uuid}/traits`, { version: LATEST });
      expect((await app.request('GET', `/resource_providers/${uuid}/traits`, { version: LATEST })).body.resource_provider_generation).toBe(2);
    });

    it('answers 404 for a provider that does not exist', async () => {
      const get = await app.request('GET', '/resource_providers/non_existed/traits', { version: LATEST });
      expect(get.status).toBe(404);
      expect(get.body.errors[0].detail).toContain('No resource provider with uuid non_existed found');
      expect((await setTraits('non_existed', ['CUSTOM_TRAIT_1'], 1)).status).toBe(404);
      expect((await app.request('DELETE', '/resource_providers/non_existed/traits', { version: LATEST })).status).toBe(404);
    });
  });
});
