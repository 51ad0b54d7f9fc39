import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { SERVER_ENTRY, ServerProcess, startServerProcess } from '../support/server-process.js';

jest.setTimeout(90_000);

/** Settings a developer's shell may carry that would override the file under test. */
const CLEAN_ENV = { DATABASE_URL: '', PLACEMENT_AUTH_STRATEGY: '', PLACEMENT_POLICY_FILE: '', OS_PLACEMENT_CONFIG_DIR: '', LOG_LEVEL: '' };

/** kolla-ansible's placement.conf, trimmed, over a test database. */
const kollaConf = (connection: string) => `
[DEFAULT]
debug = False
log_dir = /var/log/kolla/placement
state_path = /var/lib/placement
transport_url = rabbit://openstack:secret@10.0.0.10:5672//

[api]
auth_strategy = noauth2

[oslo_concurrency]
lock_path = /var/lib/placement/tmp

[placement_database]
connection = ${connection}
max_retries = -1

[placement]
incomplete_consumer_project_id = legacy-project
incomplete_consumer_user_id = legacy-user
not_an_option = 1

[oslo_messaging_notifications]
driver = noop
`;

/** The built server run to its exit (it stops at once on a bad configuration). */
function runServerToExit(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [SERVER_ENTRY, ...args], { env: { ...process.env, ...CLEAN_ENV, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((done) => child.on('exit', (code) => { clearTimeout(timer); done({ code, output }); }));
}

describe('the server reads upstream\'s placement.conf', () => {
  let db: TestDatabase;
  let dir: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('pl_conf');
    dir = mkdtempSync(join(tmpdir(), 'placement-conf-'));
  });
  afterAll(async () => {
    await server?.stop();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves from a kolla-style file (SQLAlchemy URL, noauth2) and honours its [placement] options', async () => {
    const file = join(dir, 'placement.conf');
    writeFileSync(file, kollaConf(db.url.replace(/^postgres(ql)?:/, 'postgresql+psycopg2:') + '?charset=utf8'));
    server = await startServerProcess(CLEAN_ENV, 60_000, ['--config-file', file]);
    const request = async (method: string, path: string, version: string, body?: unknown) => {
      const response = await fetch(`${server!.url}${path}`, {
        method,
        headers: { 'x-auth-token': 'admin', 'openstack-api-version': `placement ${version}`, 'content-type': 'application/json', accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: response.status === 204 ? undefined : await response.json() };
    };
    const rp = randomUUID();
    const consumer = randomUUID();
    expect((await request('POST', '/resource_providers', '1.20', { name: `rp-${rp}`, uuid: rp })).status).toBe(200);
    expect((await request('PUT', `/resource_providers/${rp}/inventories`, '1.20', {
      resource_provider_generation: 0, inventories: { VCPU: { total: 8 } },
    })).status).toBe(200);
    // Below 1.8 a claim names no owner: the file's incomplete_consumer_*_id are used, not upstream's all-zero default.
    expect((await request('PUT', `/allocations/${consumer}`, '1.0', { allocations: [{ resource_provider: { uuid: rp }, resources: { VCPU: 1 } }] })).status).toBe(204);
    expect((await request('GET', `/allocations/${consumer}`, '1.12')).body).toMatchObject({ project_id: 'legacy-project', user_id: 'legacy-user' });

    const output = server.output();
    expect(output).toContain(`${file}:21: [placement] not_an_option is not an option Placement Ledger knows; ignored`);
    expect(output.match(/not_an_option/g)).toHaveLength(1);
    expect(output).toContain('dropped URL parameters PostgreSQL does not take: charset');
    expect(output).not.toMatch(/log_dir|transport_url|lock_path/);
    expect(await server.stop()).toBe(0);
    server = undefined;
  });

  it('stops with exit 2 on a bad value, naming file, section and option', async () => {
    const file = join(dir, 'bad.conf');
    writeFileSync(file, `[api]\nauth_strategy = noauth2\n[placement_database]\nconnection = ${db.url}\n[placement]\nrandomize_allocation_candidates = sometimes\n`);
    const { code, output } = await runServerToExit(['--config-file', file]);
    expect(code).toBe(2);
    expect(output).toContain(`${file}: [placement] randomize_allocation_candidates: \\"sometimes\\" is not a boolean`);
  });

  it('refuses a MySQL connection, pointing at the import', async () => {
    const file = join(dir, 'mysql.conf');
    writeFileSync(file, '[api]\nauth_strategy = noauth2\n[placement_database]\nconnection = mysql+pymysql://placement:pw@10.0.0.1/placement\n');
    const { code, output } = await runServerToExit(['--config-file', file]);
    expect(code).toBe(2);
    expect(output).toContain('Placement Ledger keeps its live data in PostgreSQL');
    expect(output).toContain('placement-admin import --from mysql+pymysql://placement:***@10.0.0.1/placement');
  });

  it('lets a later --config-dir file override the --config-file', async () => {
    const confDir = join(dir, 'conf.d');
    mkdirSync(confDir);
    const file = join(dir, 'base.conf');
    writeFileSync(file, `[api]\nauth_strategy = noauth2\n[placement_database]\nconnection = ${db.url}\n[placement]\nallocation_conflict_retry_count = 5\n`);
    writeFileSync(join(confDir, '10-a.conf'), '[placement]\nallocation_conflict_retry_count = 0\n');
    writeFileSync(join(confDir, '20-b.conf'), '[placement]\nallocation_conflict_retry_count = x\n');
    const { code, output } = await runServerToExit(['--config-file', file, '--config-dir', confDir]);
    // Only the last file's value counts: the error names 20-b.conf, not 10-a.conf.
    expect(code).toBe(2);
    expect(output).toContain(`${join(confDir, '20-b.conf')}: [placement] allocation_conflict_retry_count: \\"x\\" is not an integer`);
    expect(output).not.toContain('10-a.conf');
  });
});
