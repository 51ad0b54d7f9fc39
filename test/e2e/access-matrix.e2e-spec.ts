import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ACCESS_MATRIX, MatrixFixture, MatrixRow, Mode, MODES, OPENED_POLICY, Principal, PRINCIPALS, Probe, Verdict,
} from '../authorization/access-matrix.js';
import { launchKeystone, RealKeystone } from '../support/keystone/keystone-harness.js';
import { startTestApp, TestApp } from '../support/test-app.js';

/**
 * Issue 27: the who-may-do-what matrix (test/authorization/access-matrix.ts), walked route by
 * route and caller by caller against a real Keystone, for the default policy with scope enforced
 * and not, and for the ledger opened to project readers. A route of /openapi.json without a row
 * fails the walk.
 */
const launch = launchKeystone();
if (!launch.ok) process.stderr.write(`access-matrix.e2e-spec: real Keystone unavailable, suite skipped: ${launch.reason}\n`);
const suite = launch.ok ? describe : describe.skip;

jest.setTimeout(300_000);

const MODE_ENV: Record<Mode, (policyFile: string) => Record<string, string>> = {
  scope_on: () => ({ PLACEMENT_POLICY_ENFORCE_SCOPE: 'true' }),
  scope_off: () => ({ PLACEMENT_POLICY_ENFORCE_SCOPE: 'false' }),
  opened: (policyFile) => ({ PLACEMENT_POLICY_ENFORCE_SCOPE: 'true', PLACEMENT_POLICY_FILE: policyFile }),
};

async function tokensOf(keystone: RealKeystone): Promise<Record<Principal, string | null>> {
  const [admin, service, aMember, aReader, bMember, system] = await Promise.all([
    keystone.token('admin'), keystone.token('placement'), keystone.token('member'), keystone.token('reader'), keystone.token('member_b'),
    keystone.token('admin', 'system'),
  ]);
  return {
    admin: admin.token, service: service.token, a_member: aMember.token, a_reader: aReader.token, b_member: bMember.token,
    system_admin: system.token, no_token: null,
  };
}

/** A's and B's consumers on one provider, written by admin. */
async function buildFixture(app: TestApp, admin: string, keystone: RealKeystone): Promise<MatrixFixture> {
  const write = async (method: string, path: string, body?: unknown) => {
    const reply = await app.request(method, path, { token: admin, version: 'latest', body });
    if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`);
    return reply.headers.get('x-openstack-request-id')!;
  };
  const provider = randomUUID();
  const [consumerA, consumerB] = [randomUUID(), randomUUID()];
  const projectA = keystone.users.member.project_id;
  const projectB = keystone.users.member_b.project_id;
  await write('POST', '/resource_providers', { name: `matrix-${provider}`, uuid: provider });
  await write('PUT', `/resource_providers/${provider}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 16 } } });
  const claim = (project: string, user: string) => ({
    allocations: { [provider]: { resources: { VCPU: 1 } } }, project_id: project, user_id: user, consumer_generation: null, consumer_type: 'INSTANCE',
  });
  const batchRequest = await write('POST', '/allocations', {
    [consumerA]: claim(projectA, keystone.users.member.id), [consumerB]: claim(projectB, keystone.users.member_b.id),
  });
  const requestA = await write('PUT', `/allocations/${consumerA}`, { ...claim(projectA, keystone.users.member.id), consumer_generation: 1 });
  return { provider, projectA, projectB, consumerA, consumerB, batchRequest, requestA, now: new Date().toISOString(), nothing: randomUUID() };
}

/** The ids an answer must not show to a caller of the other project. */
function foreignIds(fixture: MatrixFixture, principal: Principal): string[] {
  if (principal === 'b_member') return [fixture.projectA, fixture.consumerA];
  return [fixture.projectB, fixture.consumerB];
}

/** What a filtered answer must still show: the caller's own project's consumer, or its project where the answer names projects. */
function ownId(fixture: MatrixFixture, principal: Principal, probe: Probe): string {
  const ofB = principal === 'b_member';
  if (probe.shows === 'projects') return ofB ? fixture.projectB : fixture.projectA;
  return ofB ? fixture.consumerB : fixture.consumerA;
}

interface Outcome { readonly route: string; readonly about?: string; readonly mode: Mode; readonly principal: Principal; readonly expected: Verdict; readonly got: string }

async function walk(app: TestApp, mode: Mode, rows: readonly MatrixRow[], fixture: MatrixFixture, tokens: Record<Principal, string | null>): Promise<Outcome[]> {
  const wrong: Outcome[] = [];
  for (const row of rows) {
    const [method, path] = row.route.split(' ');
    for (const matrixCase of row.cases) {
      const probe: Probe = matrixCase.probe(fixture);
      await Promise.all(PRINCIPALS.map(async (principal) => {
        const expected = matrixCase.verdicts[mode][principal];
        const reply = await app.request(method, probe.path, {
          token: tokens[principal], version: 'latest', body: probe.body,
          headers: { ...(probe.contentType ? { 'content-type': probe.contentType } : {}), ...(probe.accept ? { accept: probe.accept } : {}) },
        });
        const refusal = principal === 'no_token' ? 401 : 403;
        const leaked = foreignIds(fixture, principal).filter((id) => reply.text.includes(id));
        const right = expected === 'denied' ? reply.status === refusal
          : expected === 'allowed' ? reply.status === probe.ok
          : reply.status === probe.ok && leaked.length === 0 && reply.text.includes(ownId(fixture, principal, probe));
        if (!right) {
          const got = `${reply.status}${leaked.length > 0 ? ` showing ${leaked.join(', ')}` : ''}: ${reply.text.slice(0, 160)}`;
          wrong.push({ route: `${method} ${path}`, about: matrixCase.about, mode, principal, expected, got });
        }
      }));
    }
  }
  return wrong;
}

suite(`the access matrix against a real Keystone${launch.ok ? '' : ` (skipped: ${launch.reason})`}`, () => {
  const keystone = launch.ok ? launch.keystone : undefined!;
  let dir: string;
  let tokens: Record<Principal, string | null>;
  const apps = new Map<Mode, { app: TestApp; fixture: MatrixFixture }>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'access-matrix-'));
    const policyFile = join(dir, 'policy.yaml');
    writeFileSync(policyFile, Object.entries(OPENED_POLICY).map(([rule, check]) => `"${rule}": "${check}"\n`).join(''));
    tokens = await tokensOf(keystone);
    for (const mode of MODES) {
      const app = await startTestApp({ ...keystone.serviceEnv(), ...MODE_ENV[mode](policyFile) });
      // Each token validated once, one at a time: the walk asks about policy, not how fast a busy Keystone validates seven at once.
      for (const token of Object.values(tokens)) await app.request('GET', '/resource_classes', { token });
      apps.set(mode, { app, fixture: await buildFixture(app, tokens.admin!, keystone) });
    }
  }, 300_000);
  afterAll(async () => {
    for (const { app } of apps.values()) await app.close();
    keystone.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has a row for every route of /openapi.json, and no row for a route that is not there', async () => {
    const { app } = apps.get('scope_on')!;
    const document = (await app.request('GET', '/openapi.json', { token: tokens.admin })).body;
    const documented = Object.entries(document.paths as Record<string, object>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    const rows = ACCESS_MATRIX.map((row) => row.route);
    expect(documented.filter((route) => !rows.includes(route))).toEqual([]);
    expect(rows.filter((route) => !documented.includes(route))).toEqual([]);
    expect(new Set(rows).size).toBe(rows.length);
  });

  it.each(MODES)('holds route by route and caller by caller (%s)', async (mode) => {
    const { app, fixture } = apps.get(mode)!;
    expect(await walk(app, mode, ACCESS_MATRIX, fixture, tokens)).toEqual([]);
  });
});
