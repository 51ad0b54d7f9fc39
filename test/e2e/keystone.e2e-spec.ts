import { randomUUID } from 'node:crypto';
import { get } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchKeystone } from '../support/keystone/keystone-harness.js';
import { RequestOptions, startTestApp, TestApp } from '../support/test-app.js';

/**
 * PLACEMENT_AUTH_STRATEGY=keystone against a real Keystone (Debian's, started by
 * test/support/keystone/start-keystone.sh while jest loads this file). Where it cannot run,
 * the suite is reported as skipped with the reason; keystone-recorded.e2e-spec.ts still runs.
 */
const launch = launchKeystone();
if (!launch.ok) process.stderr.write(`keystone.e2e-spec: real Keystone unavailable, suite skipped: ${launch.reason}\n`);
const suite = launch.ok ? describe : describe.skip;
const title = launch.ok ? 'keystone authentication against a real Keystone' : `keystone authentication against a real Keystone (skipped: ${launch.reason})`;

// Keystone under uwsgi answers in a second or two on a busy machine; each test asks it several times.
jest.setTimeout(60_000);

/** An event stream of the ledger feed, open until the server ends it: when it did, and what it said last. */
function openStream(baseUrl: string, token: string): Promise<{ ended: Promise<{ at: number; text: string }> }> {
  return new Promise((opened, failed) => {
    const request = get(`${baseUrl}/ledger/events?stream=sse`, { headers: { 'x-auth-token': token, accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) return failed(new Error(`the stream answered ${response.statusCode}`));
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      opened({ ended: new Promise((done) => response.on('end', () => done({ at: Date.now(), text }))) });
    });
    request.on('error', failed);
  });
}

const KEYSTONE_401 = { error: { code: 401, title: 'Unauthorized', message: 'The request you have made requires authentication.' } };

suite(title, () => {
  const keystone = launch.ok ? launch.keystone : undefined!;
  let app: TestApp;
  const as = (token: string, more: Partial<RequestOptions> = {}): RequestOptions => ({ token, version: '1.39', ...more });
  const status = async (method: string, path: string, options: RequestOptions) => (await app.request(method, path, options)).status;

  beforeAll(async () => {
    app = await startTestApp(keystone.serviceEnv());
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    keystone.stop();
  });

  it('lets the admin create and read providers', async () => {
    const { token } = await keystone.token('admin');
    const uuid = randomUUID();
    expect(await status('POST', '/resource_providers', as(token, { body: { name: `rp-${uuid}`, uuid } }))).toBe(200);
    const shown = await app.request('GET', `/resource_providers/${uuid}`, as(token));
    expect(shown.status).toBe(200);
    expect(shown.body.uuid).toBe(uuid);
  });

  it('lets the service user (role service in project service) manage providers, recorded as the caller', async () => {
    const { token } = await keystone.token('placement');
    const uuid = randomUUID();
    expect(await status('POST', '/resource_providers', as(token, { body: { name: `rp-${uuid}`, uuid } }))).toBe(200);
    expect(await status('GET', '/resource_providers', as(token))).toBe(200);
    const rows = await app.running.database.pool.query(
      'SELECT metadata FROM es_events WHERE stream_id = $1 ORDER BY revision LIMIT 1', [`provider-${uuid}`]);
    expect(rows.rows[0].metadata).toMatchObject({
      userId: keystone.users.placement.id, projectId: keystone.users.placement.project_id, roles: ['service'],
    });
  });

  it('holds the reader and the member to their own project\'s usages', async () => {
    for (const user of ['reader', 'member'] as const) {
      const { token } = await keystone.token(user);
      expect(await status('GET', '/resource_providers', as(token))).toBe(403);
      expect(await status('GET', `/usages?project_id=${keystone.users[user].project_id}`, as(token))).toBe(200);
      expect(await status('GET', `/usages?project_id=${keystone.users.admin.project_id}`, as(token))).toBe(403);
    }
  });

  it('reads system scope from a system-scoped token: project-scoped rules refuse it', async () => {
    const { token } = await keystone.token('admin', 'system');
    expect(await status('GET', '/resource_providers', as(token))).toBe(403);
  });

  it('answers keystonemiddleware\'s 401 for a missing, bogus or revoked token', async () => {
    const { token: revoked } = await keystone.token('reader');
    await keystone.revoke(revoked);
    for (const token of [null, 'bogus', `${revoked.slice(0, -4)}AAAA`, revoked]) {
      const reply = await app.request('GET', '/resource_providers', { token });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(KEYSTONE_401);
      expect(reply.headers.get('www-authenticate')).toBe(`Keystone uri="${keystone.url}/v3"`);
    }
  });

  it('accepts a token until it expires, and answers 401 once it has', async () => {
    const { token, expiresAt } = await keystone.shortLivedToken('reader', 6);
    const usages = `/usages?project_id=${keystone.users.reader.project_id}`;
    expect(await status('GET', usages, as(token))).toBe(200);
    const wait = Date.parse(expiresAt.endsWith('Z') ? expiresAt : `${expiresAt}Z`) - Date.now() + 1_000;
    await new Promise((done) => setTimeout(done, Math.max(wait, 0)));
    expect(await status('GET', usages, as(token))).toBe(401);
  });

  describe('with a policy on service_roles and a 2 s token cache', () => {
    let strict: TestApp;
    let dir: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'placement-policy-'));
      const policyFile = join(dir, 'policy.yaml');
      writeFileSync(policyFile, '"placement:resource_providers:list": "service_roles:service"\n');
      strict = await startTestApp({ ...keystone.serviceEnv(), PLACEMENT_POLICY_FILE: policyFile, PLACEMENT_KEYSTONE_CACHE_TIME: '2' });
    }, 60_000);
    afterAll(async () => {
      await strict?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('passes the X-Service-Token\'s roles to policy as service_roles', async () => {
      const { token: member } = await keystone.token('member');
      const { token: service } = await keystone.token('placement');
      const list = (headers: Record<string, string> = {}) => strict.request('GET', '/resource_providers', as(member, { headers }));
      expect((await list({ 'x-service-token': service })).status).toBe(200);
      expect((await list()).status).toBe(403);
      // The member's own token as the service token: valid, but its roles are not service.
      expect((await list({ 'x-service-token': member })).status).toBe(403);
    });

    it('ends an event stream once its token is revoked, within the cache time and one check', async () => {
      const { token } = await keystone.token('admin');
      const stream = await openStream(strict.baseUrl, token);
      await keystone.revoke(token);
      const revokedAt = Date.now();
      const { at, text } = await stream.ended;
      expect(text).toContain(': the token expired or was revoked');
      // 2 s of cache, a check every 5 s, a validation at a Keystone that takes seconds when the machine is busy.
      expect(at - revokedAt).toBeLessThan(20_000);
    });

    it('ends an event stream once its token expires', async () => {
      // Long enough to outlive a busy Keystone's issuing of it and the stream's opening.
      const { token, expiresAt } = await keystone.shortLivedToken('admin', 15);
      const stream = await openStream(strict.baseUrl, token);
      const { at, text } = await stream.ended;
      expect(text).toContain(': the token expired or was revoked');
      expect(at - Date.parse(expiresAt.endsWith('Z') ? expiresAt : `${expiresAt}Z`)).toBeLessThan(20_000);
    });

    it('refuses a token revoked after use once PLACEMENT_KEYSTONE_CACHE_TIME has passed', async () => {
      const { token } = await keystone.token('reader');
      const usages = `/usages?project_id=${keystone.users.reader.project_id}`;
      expect((await strict.request('GET', usages, as(token))).status).toBe(200);
      await keystone.revoke(token);
      const revokedAt = Date.now();
      let status = 200;
      while (status !== 401 && Date.now() - revokedAt < 10_000) {
        await new Promise((done) => setTimeout(done, 250));
        status = (await strict.request('GET', usages, as(token))).status;
      }
      expect(status).toBe(401);
      // 2 s of cache at most (it began before the revocation), plus a validation at a Keystone
      // that takes a second or two on a busy machine; without the cache time it never comes.
      expect(Date.now() - revokedAt).toBeLessThan(5_000);
    });
  });
});
