import { randomUUID } from 'node:crypto';
import { FakeKeystone } from '../support/keystone/fake-keystone.js';
import recorded from '../support/keystone/keystone-v3-recorded.json';
import { RequestOptions, startTestApp, TestApp } from '../support/test-app.js';

const READER_PROJECT = recorded.validations.reader.body.token.project!.id;
const KEYSTONE_401 = { error: { code: 401, title: 'Unauthorized', message: 'The request you have made requires authentication.' } };

/**
 * PLACEMENT_AUTH_STRATEGY=keystone through our HTTP API, against a replay of a real
 * Keystone's answers: the fast proof that runs wherever the real one (keystone.e2e-spec.ts)
 * cannot.
 */
describe('keystone authentication over HTTP, against a recorded Keystone', () => {
  let keystone: FakeKeystone;
  let app: TestApp;
  const as = (token: string, more: Partial<RequestOptions> = {}): RequestOptions => ({ token, version: '1.39', ...more });

  beforeAll(async () => {
    keystone = await FakeKeystone.start();
    app = await startTestApp(keystone.serviceEnv());
  });
  afterAll(async () => {
    await app.close();
    await keystone.close();
  });

  it('answers keystonemiddleware\'s 401 naming the auth URL for a missing or bogus token', async () => {
    for (const token of [null, 'bogus']) {
      const reply = await app.request('GET', '/resource_providers', { token });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(KEYSTONE_401);
      expect(reply.headers.get('www-authenticate')).toBe(`Keystone uri="${keystone.url}/v3"`);
      expect(reply.headers.get('x-openstack-request-id')).toMatch(/^req-/);
    }
  });

  it('serves the version document without asking Keystone', async () => {
    const before = keystone.calls.length;
    expect((await app.request('GET', '/', { token: null })).status).toBe(200);
    expect((await app.request('GET', '/', { token: 'bogus' })).status).toBe(200);
    expect(keystone.calls.length).toBe(before);
  });

  it('lets the admin and the service user manage providers', async () => {
    for (const user of ['admin', 'service'] as const) {
      const uuid = randomUUID();
      const created = await app.request('POST', '/resource_providers', as(keystone.token(user), { body: { name: `rp-${uuid}`, uuid } }));
      expect(created.status).toBe(200);
      expect((await app.request('GET', `/resource_providers/${uuid}`, as(keystone.token(user)))).status).toBe(200);
    }
  });

  it('holds a reader and a member to their own project\'s usages', async () => {
    for (const user of ['reader', 'member'] as const) {
      expect((await app.request('GET', '/resource_providers', as(keystone.token(user)))).status).toBe(403);
      expect((await app.request('GET', `/usages?project_id=${READER_PROJECT}`, as(keystone.token(user)))).status).toBe(200);
      expect((await app.request('GET', `/usages?project_id=${randomUUID()}`, as(keystone.token(user)))).status).toBe(403);
    }
  });

  it('takes system scope from the token: a system admin is refused project-scoped rules', async () => {
    const reply = await app.request('GET', '/resource_providers', as(keystone.token('systemAdmin')));
    expect(reply.status).toBe(403);
  });

  it('takes domain scope from the token: a domain admin is refused project-scoped rules too', async () => {
    const reply = await app.request('GET', '/resource_providers', as(keystone.token('domainAdmin')));
    expect(reply.status).toBe(403);
  });

  it('records the token\'s user and project as the caller of a write', async () => {
    const uuid = randomUUID();
    await app.request('POST', '/resource_providers', as(keystone.token('service'), { body: { name: `rp-${uuid}`, uuid } }));
    const rows = await app.running.database.pool.query(
      'SELECT metadata FROM es_events WHERE stream_id = $1 ORDER BY revision LIMIT 1', [`provider-${uuid}`]);
    const service = recorded.validations.service.body.token;
    expect(rows.rows[0].metadata).toMatchObject({ userId: service.user.id, projectId: service.project.id, roles: ['service'] });
  });

  it('answers 503, not 401, while Keystone cannot be reached, and recovers with it', async () => {
    keystone.unreachable = true;
    // A token never seen before: a refused one is remembered for a few seconds, and not asked about.
    const unknown = `bogus-${randomUUID()}`;
    const reply = await app.request('GET', '/resource_providers', as(unknown));
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({
      message: 'The server is currently unavailable. Please try again at a later time.<br /><br />\nThe Keystone service is temporarily unavailable.\n\n',
      code: '503 Service Unavailable',
      title: 'Service Unavailable',
    });
    keystone.unreachable = false;
    // Keystone's being away was no verdict on the token: it is asked again, and refuses it.
    expect((await app.request('GET', '/resource_providers', as(unknown))).status).toBe(401);
  });

  it('leaves the probes unauthenticated', async () => {
    expect((await app.request('GET', '/healthz', { token: null })).status).toBe(200);
  });
});
