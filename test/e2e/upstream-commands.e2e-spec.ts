import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '../support/database.js';

jest.setTimeout(90_000);

/** The built commands (`npm run build`), as the package's bins run them. */
const BIN = resolve(__dirname, '../../dist/apps/placement-admin/src');
const CLEAN_ENV = { DATABASE_URL: '', PLACEMENT_AUTH_STRATEGY: '', PLACEMENT_POLICY_FILE: '', OS_PLACEMENT_CONFIG_DIR: '' };

function run(command: 'placement-manage' | 'placement-status', args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [join(BIN, `${command}.js`), ...args], { env: { ...process.env, ...CLEAN_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => child.on('exit', (code) => done({ code, stdout, stderr })));
}

describe('placement-manage and placement-status, reading placement.conf', () => {
  let db: TestDatabase;
  let dir: string;
  let conf: string;

  beforeAll(async () => {
    db = await createTestDatabase('pl_manage');
    dir = mkdtempSync(join(tmpdir(), 'placement-manage-'));
    conf = join(dir, 'placement.conf');
    writeFileSync(conf, `[api]\nauth_strategy = noauth2\n[placement_database]\nconnection = ${db.url.replace(/^postgres(ql)?:/, 'postgresql+psycopg2:')}\n`);
  });
  afterAll(async () => {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('db version says None, and upgrade check fails, before any sync', async () => {
    expect(await run('placement-manage', ['--config-file', conf, 'db', 'version'])).toMatchObject({ code: 0, stdout: 'None\n' });
    const check = await run('placement-status', ['--config-file', conf, 'upgrade', 'check']);
    expect(check.code).toBe(2);
    expect(check.stdout).toMatch(/\| Check: Database Schema +\|\n\| Result: Failure +\|/);
  });

  it('db sync creates the schema and seeds the standard names; a second sync changes nothing', async () => {
    const first = await run('placement-manage', ['--config-file', conf, 'db', 'sync']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const count = async () => (await client.query(`SELECT (SELECT count(*) FROM es_events)::int AS events,
      (SELECT count(*) FROM read_models.rm_resource_classes)::int AS classes, (SELECT count(*) FROM read_models.rm_traits)::int AS traits,
      (SELECT count(*) FROM read_models.rm_migrations)::int AS migrations`)).rows[0];
    const after = await count();
    expect(after.classes).toBeGreaterThan(10);
    expect(after.traits).toBeGreaterThan(100);
    expect(await run('placement-manage', ['--config-file', conf, 'db', 'sync'])).toMatchObject({ code: 0 });
    expect(await count()).toEqual(after);
    await client.end();

    const version = await run('placement-manage', [`--config-file=${conf}`, 'db', 'version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^[A-Za-z]+\d{13}\n$/);
  });

  it('upgrade check succeeds on a current database, with oslo.upgradecheck\'s table', async () => {
    const check = await run('placement-status', ['--config-file', conf, 'upgrade', 'check']);
    expect(check.code).toBe(0);
    const lines = check.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\+-+\+$/);
    expect(lines[1]).toMatch(/^\| Upgrade Check Results +\|$/);
    for (const name of ['Configuration', 'Database Schema', 'Read Models', 'Policy File JSON to YAML Migration']) {
      expect(check.stdout).toMatch(new RegExp(`\\| Check: ${name} +\\|\\n\\| Result: Success +\\|\\n\\| Details: None +\\|`));
    }
    expect(check.stdout).not.toMatch(/Warning|Failure/);
  });

  it('upgrade check warns (exit 1) on a JSON policy file named by [oslo_policy] policy_file', async () => {
    writeFileSync(join(dir, 'policy.json'), JSON.stringify({ 'placement:traits:list': 'role:admin' }));
    const withPolicy = join(dir, 'with-policy.conf');
    writeFileSync(withPolicy, `[api]\nauth_strategy = noauth2\n[placement_database]\nconnection = ${db.url}\n[oslo_policy]\npolicy_file = policy.json\n`);
    const check = await run('placement-status', ['--config-file', withPolicy, 'upgrade', 'check']);
    expect(check.stdout).toMatch(/\| Check: Policy File JSON to YAML Migration +\|\n\| Result: Warning +\|\n\| Details: The policy file /);
    expect(check.stdout.replace(/[\s|]+/g, ' ')).toContain(`${join(dir, 'policy.json')} is in JSON`);
    expect(check.code).toBe(1);
  });

  it('lets DATABASE_URL override the file, and online_data_migrations has nothing to do', async () => {
    const elsewhere = join(dir, 'elsewhere.conf');
    writeFileSync(elsewhere, '[placement_database]\nconnection = mysql+pymysql://placement:pw@10.0.0.1/placement\n');
    expect(await run('placement-manage', ['--config-file', elsewhere, 'db', 'version'], { DATABASE_URL: db.url })).toMatchObject({ code: 0 });
    const refused = await run('placement-manage', ['--config-file', elsewhere, 'db', 'version']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('placement-admin import --from');
    const online = await run('placement-manage', ['--config-file', conf, 'db', 'online_data_migrations']);
    expect(online.code).toBe(0);
    expect(online.stdout).toMatch(/\| +set_root_provider_ids +\| +0 +\| +0 +\|/);
  });

  it('answers usage errors with exit 2', async () => {
    expect((await run('placement-manage', ['--config-file', conf])).code).toBe(2);
    expect((await run('placement-manage', ['--config-file', conf, 'db', 'upgrade'])).code).toBe(2);
    expect((await run('placement-status', ['--config-file', conf, 'upgrade'])).code).toBe(2);
    expect((await run('placement-manage', ['--help'])).code).toBe(0);
  });

  it('ends quietly when its reader closes the pipe early (as `| head -1` does)', async () => {
    const child = spawn(process.execPath, [join(BIN, 'main.js'), '--help'], { env: { ...process.env, ...CLEAN_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});
