import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

const HTTP_DATE = /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

describe('usages: /resource_providers/{uuid}/usages and /usages', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  async function newProvider(): Promise<string> {
    const uuid = randomUUID();
    const reply = await app.request('POST', '/resource_providers', { body: { name: `usage-${uuid}`, uuid } });
    expect(reply.status).toBe(201);
    return uuid;
  }
  const usages = (uuid: string) => `/resource_providers/${uuid}/usages`;

  describe('of a provider', () => {
    it('404s for a missing provider with upstream\'s doubled message', async () => {
      const missing = randomUUID();
      const reply = await app.request('GET', usages(missing));
      expect(reply.status).toBe(404);
      const detail = `No resource provider with uuid ${missing} found`;
      expect(reply.body.errors[0].detail).toContain(`${detail}: ${detail}`);
    });

    it('is empty without inventory, and says when only from 1.15', async () => {
      const uuid = await newProvider();
      const old = await app.request('GET', usages(uuid));
      expect(old.status).toBe(200);
      expect(old.body).toEqual({ resource_provider_generation: 0, usages: {} });
      expect(old.headers.get('last-modified')).toBeNull();
      expect(old.headers.get('cache-control')).toBeNull();
      const cached = await app.request('GET', usages(uuid), { version: '1.15' });
      expect(cached.headers.get('last-modified')).toMatch(HTTP_DATE);
      expect(cached.headers.get('cache-control')).toBe('no-cache');
    });

    it('lists every class with inventory at 0 while nothing is allocated, with the current generation', async () => {
      const uuid = await newProvider();
      const put = await app.request('PUT', `/resource_providers/${uuid}/inventories`, {
        body: { resource_provider_generation: 0, inventories: { VCPU: { total: 8 }, DISK_GB: { total: 100 } } },
      });
      expect(put.status).toBe(200);
      const reply = await app.request('GET', usages(uuid), { version: 'latest' });
      expect(reply.body).toEqual({ resource_provider_generation: 1, usages: { VCPU: 0, DISK_GB: 0 } });
    });

    it('refuses an Accept header without JSON', async () => {
      const uuid = await newProvider();
      expect((await app.request('GET', usages(uuid), { headers: { accept: 'text/plain' } })).status).toBe(406);
    });
  });

  describe('of a project', () => {
    const project = randomUUID();

    it('does not exist before 1.9', async () => {
      expect((await app.request('GET', `/usages?project_id=${project}`, { version: '1.8' })).status).toBe(404);
    });

    it('is empty for a project that holds nothing', async () => {
      const reply = await app.request('GET', `/usages?project_id=${project}`, { version: '1.9' });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ usages: {} });
      expect(reply.headers.get('last-modified')).toBeNull();
      const withUser = await app.request('GET', `/usages?project_id=${project}&user_id=someone`, { version: '1.15' });
      expect(withUser.body).toEqual({ usages: {} });
      expect(withUser.headers.get('last-modified')).toMatch(HTTP_DATE);
    });

    it('from 1.38 accepts all, unknown and type names, and has no group when nothing is held', async () => {
      for (const type of ['all', 'unknown', 'INSTANCE', 'allx']) {
        const reply = await app.request('GET', `/usages?project_id=${project}&consumer_type=${type}`, { version: '1.38' });
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual({ usages: {} });
      }
    });

    it('validates the query string for the version', async () => {
      const long = 'x'.repeat(256);
      const cases: [string, string, string][] = [
        ['1.9', '', "'project_id' is a required property"],
        ['1.9', 'project_id=', "Failed validating 'minLength'"],
        ['1.9', `project_id=${project}&user_id=`, "Failed validating 'minLength'"],
        ['1.9', `project_id=${long}`, "Failed validating 'maxLength'"],
        ['1.9', `project_id=${project}&user_id=${long}`, "Failed validating 'maxLength'"],
        ['1.9', `project_id=${project}&dummy=1`, "Additional properties are not allowed ('dummy' was unexpected)"],
        ['1.37', `project_id=${project}&consumer_type=all`, "('consumer_type' was unexpected)"],
        ['1.38', `project_id=${project}&consumer_type=instance`, "'instance' does not match '^[A-Z0-9_]+$|^all|^unknown$'"],
        // webob keeps a repeated key's last value.
        ['1.9', `project_id=${project}&project_id=`, "Failed validating 'minLength'"],
      ];
      for (const [version, query, message] of cases) {
        const reply = await app.request('GET', `/usages?${query}`, { version });
        expect(reply.status).toBe(400);
        expect(reply.body.errors[0].detail).toContain('Invalid query string parameters: ');
        expect(reply.body.errors[0].detail).toContain(message);
      }
    });

    it('is read-only', async () => {
      const reply = await app.request('PUT', `/usages?project_id=${project}`, { version: '1.9', body: {} });
      expect(reply.status).toBe(405);
    });
  });
});
