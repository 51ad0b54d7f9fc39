import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

const HTTP_DATE = /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const AGG_1 = 'f918801a-5e54-4bee-9095-09a9d0c786b8';
const AGG_2 = 'a893eb5c-e2a0-4251-ab26-f71d3b0cfc0b';

describe('provider aggregates: /resource_providers/{uuid}/aggregates', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  async function newProvider(): Promise<string> {
    const uuid = randomUUID();
    const reply = await app.request('POST', '/resource_providers', { body: { name: `agg-${uuid}`, uuid } });
    expect(reply.status).toBe(201);
    return uuid;
  }
  const aggregates = (uuid: string) => `/resource_providers/${uuid}/aggregates`;
  const generationOf = async (uuid: string) => (await app.request('GET', `/resource_providers/${uuid}`)).body.generation;

  it('404s for a missing provider, even with a bad body, and below 1.1', async () => {
    const missing = randomUUID();
    const get = await app.request('GET', aggregates(missing), { version: '1.1' });
    expect(get.status).toBe(404);
    expect(get.body.errors[0].detail).toContain(`No resource provider with uuid ${missing} found`);
    const put = await app.request('PUT', aggregates(missing), { version: '1.1', body: 'not json' });
    expect(put.status).toBe(404);

    const uuid = await newProvider();
    expect((await app.request('GET', aggregates(uuid), { version: '1.0' })).status).toBe(404);
    expect((await app.request('PUT', aggregates(uuid), { version: '1.0', body: [] })).status).toBe(404);
  });

  it('lists no aggregates for a new provider, with the generation from 1.19', async () => {
    const uuid = await newProvider();
    expect((await app.request('GET', aggregates(uuid), { version: '1.18' })).body).toEqual({ aggregates: [] });
    expect((await app.request('GET', aggregates(uuid), { version: '1.19' })).body)
      .toEqual({ aggregates: [], resource_provider_generation: 0 });
  });

  it('before 1.19 sets a bare list without moving the generation', async () => {
    const uuid = await newProvider();
    const put = await app.request('PUT', aggregates(uuid), { version: '1.14', body: [AGG_1, AGG_2] });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ aggregates: [AGG_1, AGG_2] });
    expect(put.headers.get('last-modified')).toBeNull();
    expect(put.headers.get('cache-control')).toBeNull();
    expect(await generationOf(uuid)).toBe(0);

    const get = await app.request('GET', aggregates(uuid), { version: '1.18' });
    expect(get.body.aggregates.slice().sort()).toEqual([AGG_1, AGG_2].sort());
    expect(get.headers.get('last-modified')).toMatch(HTTP_DATE);
    expect(get.headers.get('cache-control')).toBe('no-cache');
  });

  it('from 1.19 checks and increments the generation', async () => {
    const uuid = await newProvider();
    const put = await app.request('PUT', aggregates(uuid), {
      version: '1.19', body: { aggregates: [AGG_1, AGG_2], resource_provider_generation: 0 },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ aggregates: [AGG_1, AGG_2], resource_provider_generation: 1 });
    expect(put.headers.get('last-modified')).toMatch(HTTP_DATE);
    expect(await generationOf(uuid)).toBe(1);

    const stale = await app.request('PUT', aggregates(uuid), {
      version: '1.23', body: { aggregates: [], resource_provider_generation: 0 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe('placement.concurrent_update');
    expect(stale.body.errors[0].detail).toContain("Resource provider's generation already changed.");
    expect((await app.request('GET', aggregates(uuid), { version: '1.19' })).body.aggregates).toHaveLength(2);

    const cleared = await app.request('PUT', aggregates(uuid), {
      version: '1.19', body: { aggregates: [], resource_provider_generation: 1 },
    });
    expect(cleared.body).toEqual({ aggregates: [], resource_provider_generation: 2 });
    expect((await app.request('GET', aggregates(uuid), { version: '1.19' })).body)
      .toEqual({ aggregates: [], resource_provider_generation: 2 });
  });

  it('validates the body for the version and changes nothing when it is bad', async () => {
    const uuid = await newProvider();
    const put = (version: string, body: unknown) => app.request('PUT', aggregates(uuid), { version, body });
    const cases: [string, unknown, string][] = [
      ['1.19', [AGG_1], "JSON does not validate: ['f918801a-5e54-4bee-9095-09a9d0c786b8'] is not of type 'object'"],
      ['1.18', { aggregates: [AGG_1], resource_provider_generation: 0 }, 'JSON does not validate'],
      ['1.19', { aggregates: [AGG_1] }, "'resource_provider_generation' is a required property"],
      ['1.19', { aggregates: ['harry', 'sally'], resource_provider_generation: 0 }, "'harry' is not a 'uuid'"],
      ['1.19', { aggregates: [AGG_1, AGG_1], resource_provider_generation: 0 }, 'has non-unique elements'],
      ['1.19', { aggregates: [], resource_provider_generation: 0, extra: 1 }, 'Additional properties are not allowed'],
      ['1.19', { aggregates: [`{${AGG_1}}`], resource_provider_generation: 0 }, 'at most 36 characters'],
      ['1.19', '{"bad", "not json"}', 'Malformed JSON'],
    ];
    for (const [version, body, message] of cases) {
      const reply = await put(version, body);
      expect(reply.status).toBe(400);
      expect(reply.body.errors[0].detail).toContain(message);
    }
    const noType = await app.request('PUT', aggregates(uuid), { version: '1.19', body: '[]', headers: { 'content-type': 'text/plain' } });
    expect(noType.status).toBe(415);
    expect((await app.request('GET', aggregates(uuid), { version: '1.19' })).body)
      .toEqual({ aggregates: [], resource_provider_generation: 0 });
  });

  it('keeps uuid spellings verbatim, as upstream does', async () => {
    const uuid = await newProvider();
    const compact = AGG_1.replace(/-/g, '').toUpperCase();
    const put = await app.request('PUT', aggregates(uuid), { version: '1.19', body: { aggregates: [compact], resource_provider_generation: 0 } });
    expect(put.status).toBe(200);
    expect((await app.request('GET', aggregates(uuid), { version: '1.19' })).body.aggregates).toEqual([compact]);
  });

  it('feeds member_of on GET /resource_providers', async () => {
    const [inAgg, outside, agg] = [await newProvider(), await newProvider(), randomUUID()];
    await app.request('PUT', aggregates(inAgg), { version: '1.19', body: { aggregates: [agg], resource_provider_generation: 0 } });
    const found = await app.request('GET', `/resource_providers?member_of=${agg}`, { version: '1.3' });
    expect(found.status).toBe(200);
    expect(found.body.resource_providers.map((p: { uuid: string }) => p.uuid)).toEqual([inAgg]);
    const forbidden = await app.request('GET', `/resource_providers?member_of=!${agg}`, { version: '1.32' });
    const uuids = forbidden.body.resource_providers.map((p: { uuid: string }) => p.uuid);
    expect(uuids).toContain(outside);
    expect(uuids).not.toContain(inAgg);
  });
});
