import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '#platform/config.js';
import { RequestOptions, startTestApp, TestApp } from '../support/test-app.js';

/** noauth2 identities as the conformance tests send them. */
const as = (roles: string, scope: { project?: string; system?: boolean } = {}): RequestOptions => ({
  token: 'user',
  headers: {
    'x-roles': roles,
    ...(scope.project ? { 'x-project-id': scope.project } : {}),
    ...(scope.system ? { 'openstack-system-scope': 'all' } : {}),
  },
});
const PROJECT = 'p-own';
const admin = as('admin', { project: 'p-admin' });
const service = as('service', { project: 'p-service' });
const member = as('member,reader', { project: PROJECT });
const reader = as('reader', { project: PROJECT });
const systemAdmin = as('admin,member,reader', { system: true });

const withVersion = (options: RequestOptions, version = '1.39', more: Partial<RequestOptions> = {}): RequestOptions => ({
  ...options, version, ...more, headers: { ...options.headers, ...more.headers },
});

const policyDenial = (rule: string) => ({
  status: 403,
  title: 'Forbidden',
  code: 'placement.undefined_code',
  detail: `Access was denied to this resource.\n\n Policy does not allow ${rule} to be performed.  `,
});

async function createProvider(app: TestApp): Promise<string> {
  const uuid = randomUUID();
  const reply = await app.request('POST', '/resource_providers', withVersion(admin, '1.20', { body: { name: `rp-${uuid}`, uuid } }));
  expect(reply.status).toBe(200);
  return uuid;
}

describe('policy: legacy rules OR-ed in, scope enforced (the conformance default)', () => {
  let app: TestApp;
  let rp: string;
  beforeAll(async () => {
    app = await startTestApp({ PLACEMENT_POLICY_ENFORCE_NEW_DEFAULTS: 'false', PLACEMENT_POLICY_ENFORCE_SCOPE: 'true', PLACEMENT_POLICY_OPEN: 'false' });
    rp = await createProvider(app);
  });
  afterAll(async () => app.close());

  it('lets admin and service at providers, and refuses a member in upstream\'s error shape', async () => {
    expect((await app.request('GET', `/resource_providers/${rp}`, withVersion(admin))).status).toBe(200);
    expect((await app.request('GET', `/resource_providers/${rp}`, withVersion(service))).status).toBe(200);
    const refused = await app.request('GET', '/resource_providers', withVersion(member));
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toMatchObject(policyDenial('placement:resource_providers:list'));
  });

  it('refuses a system-scoped admin: the rules are project-scoped', async () => {
    const refused = await app.request('GET', '/resource_providers', withVersion(systemAdmin));
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].detail).toContain('Policy does not allow placement:resource_providers:list to be performed.');
  });

  it('needs no policy for the version document', async () => {
    expect((await app.request('GET', '/', { token: null })).status).toBe(200);
  });

  it('judges total usages against the project asked about', async () => {
    expect((await app.request('GET', `/usages?project_id=${PROJECT}`, withVersion(reader))).status).toBe(200);
    expect((await app.request('GET', `/usages?project_id=${PROJECT}`, withVersion(member))).status).toBe(200);
    const elsewhere = await app.request('GET', '/usages?project_id=p-other', withVersion(reader));
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.errors[0]).toMatchObject(policyDenial('placement:usages'));
    expect((await app.request('GET', '/usages?project_id=p-other', withVersion(admin))).status).toBe(200);
  });

  it('checks policy after the route\'s version, Accept and Content-Type checks', async () => {
    expect((await app.request('GET', '/resource_providers', withVersion(member, '1.39', { headers: { accept: 'text/plain' } }))).status).toBe(406);
    expect((await app.request('GET', `/resource_providers/${rp}/traits`, withVersion(member, '1.5'))).status).toBe(404);
    expect((await app.request('GET', '/usages?project_id=p-other', withVersion(member, '1.8'))).status).toBe(404);
    const text = withVersion(member, '1.39', { body: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect((await app.request('POST', '/resource_providers', text)).status).toBe(415);
  });

  it('and before the body or the query string is validated', async () => {
    const malformed = await app.request('POST', '/resource_providers', withVersion(member, '1.39', { body: '{"name": ' }));
    expect(malformed.status).toBe(403);
    const noProject = await app.request('GET', '/usages', withVersion(reader));
    expect(noProject.status).toBe(403);
    // An admin passes the policy, so the missing project_id is what gets reported.
    expect((await app.request('GET', '/usages', withVersion(admin))).status).toBe(400);
  });

  it('leaves a refused write undone', async () => {
    const put = await app.request('PUT', `/resource_providers/${rp}/aggregates`, withVersion(member, '1.39', {
      body: { aggregates: [randomUUID()], resource_provider_generation: 0 },
    }));
    expect(put.status).toBe(403);
    const after = await app.request('GET', `/resource_providers/${rp}/aggregates`, withVersion(admin));
    expect(after.body).toMatchObject({ aggregates: [], resource_provider_generation: 0 });
  });
});

describe('policy: new defaults only, with an operator policy file', () => {
  let app: TestApp;
  let rp: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'placement-policy-'));
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, [
      '# readers may list providers; nobody lists traits',
      '"placement:resource_providers:list": "role:reader"',
      'placement:traits:list: "!"',
      'placement:resource_providers:show: role:reader and',
      '  project_id:%(project_id)s',
    ].join('\n'));
    app = await startTestApp({ PLACEMENT_POLICY_ENFORCE_NEW_DEFAULTS: 'true', PLACEMENT_POLICY_FILE: file });
    rp = await createProvider(app);
  });
  afterAll(async () => app.close());

  it('replaces the default rule with the operator\'s', async () => {
    expect((await app.request('GET', '/resource_providers', withVersion(reader))).status).toBe(200);
    expect((await app.request('GET', '/resource_providers', withVersion(admin))).status).toBe(403);
    expect((await app.request('GET', '/traits', withVersion(admin))).status).toBe(403);
    expect((await app.request('GET', `/resource_providers/${rp}`, withVersion(reader))).status).toBe(200);
  });

  it('keeps every rule the file does not name at its default', async () => {
    expect((await app.request('GET', '/resource_classes', withVersion(admin))).status).toBe(200);
    expect((await app.request('GET', '/resource_classes', withVersion(reader))).status).toBe(403);
  });

  it('still enforces the scope a rule serves', async () => {
    expect((await app.request('GET', '/resource_providers', withVersion(as('reader', { system: true })))).status).toBe(403);
  });
});

describe('policy: the open policy', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp({ PLACEMENT_POLICY_OPEN: 'true' }); });
  afterAll(async () => app.close());

  it('lets any project-scoped caller in, but not a system-scoped one', async () => {
    const anyone = as('', { project: PROJECT });
    const uuid = randomUUID();
    const created = await app.request('POST', '/resource_providers', withVersion(anyone, '1.20', { body: { name: 'open', uuid } }));
    expect(created.status).toBe(200);
    expect((await app.request('DELETE', `/resource_providers/${uuid}`, withVersion(anyone))).status).toBe(204);
    expect((await app.request('GET', '/resource_providers', withVersion(systemAdmin))).status).toBe(403);
  });
});

describe('policy file configuration', () => {
  it('stops the start on an unreadable or malformed file, naming the variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'placement-policy-'));
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, '"placement:traits:list": "role:admin and"\n');
    expect(() => loadConfig({ PLACEMENT_POLICY_FILE: bad })).toThrow(ConfigError);
    expect(() => loadConfig({ PLACEMENT_POLICY_FILE: bad })).toThrow(`PLACEMENT_POLICY_FILE: ${bad}: rule "placement:traits:list": could not parse rule "role:admin and"`);
    expect(() => loadConfig({ PLACEMENT_POLICY_FILE: join(dir, 'absent.yaml') })).toThrow(/PLACEMENT_POLICY_FILE: cannot read .*absent\.yaml: ENOENT/);
  });
});
