import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NOAUTH2_WARNING } from '#platform/auth/secure-default.js';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { SERVER_ENTRY, startServerProcess } from '../support/server-process.js';

jest.setTimeout(120_000);

/** Settings a developer's shell may carry that would choose a strategy for the server under test. */
const CLEAN_ENV = { PLACEMENT_AUTH_STRATEGY: '', OS_PLACEMENT_CONFIG_DIR: '', LOG_LEVEL: '', PLACEMENT_WORKERS: '' };

/** The server's JSON log lines at `warn` that carry the noauth2 warning. */
const noauthWarnings = (output: string) => output.split('\n').filter((line) => line.startsWith('{'))
  .map((line) => JSON.parse(line) as { level: string; msg: string })
  .filter((entry) => entry.level === 'warn' && entry.msg === NOAUTH2_WARNING);

const lastLine = (output: string) => JSON.parse(output.trim().split('\n').at(-1)!) as { level: string; msg: string };

describe('secure start: noauth2 must be asked for off loopback', () => {
  let db: TestDatabase;
  // An empty --config-dir: no /etc/placement/placement.conf of this machine chooses a strategy.
  let noFiles: string;

  beforeAll(async () => {
    db = await createTestDatabase('pl_secure');
    noFiles = mkdtempSync(join(tmpdir(), 'placement-noconf-'));
  });
  afterAll(async () => {
    await db.drop();
    rmSync(noFiles, { recursive: true, force: true });
  });

  function runToExit(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; output: string }> {
    const child = spawn(process.execPath, [SERVER_ENTRY, '--config-dir', noFiles, ...args], {
      env: { ...process.env, ...CLEAN_ENV, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    return new Promise((done) => child.on('exit', (code) => { clearTimeout(timer); done({ code, output }); }));
  }

  it('refuses HOST=0.0.0.0 without a strategy: exit 2 and what to set', async () => {
    const { code, output } = await runToExit({ HOST: '0.0.0.0', DATABASE_URL: db.url });
    expect(code).toBe(2);
    const line = lastLine(output);
    expect(line.level).toBe('fatal');
    expect(line.msg).toContain('configuration error: PLACEMENT_AUTH_STRATEGY is not set and HOST (or --host) "0.0.0.0" is not a loopback address');
    expect(line.msg).toContain('Set PLACEMENT_AUTH_STRATEGY=keystone with PLACEMENT_KEYSTONE_AUTH_URL');
    expect(line.msg).toContain('or PLACEMENT_AUTH_STRATEGY=noauth2 for development and tests only');
  });

  it('counts --host on the command line as HOST', async () => {
    const { code, output } = await runToExit({ HOST: '127.0.0.1', DATABASE_URL: db.url }, ['--host', '::']);
    expect(code).toBe(2);
    expect(lastLine(output).msg).toContain('HOST (or --host) "::" is not a loopback address');
  });

  it('serves noauth2 on loopback by default, and says once that anyone can claim any identity', async () => {
    const server = await startServerProcess({ ...CLEAN_ENV, DATABASE_URL: db.url }, 60_000, ['--config-dir', noFiles]);
    const reply = await fetch(`${server.url}/resource_providers`, { headers: { 'x-auth-token': 'admin' } });
    expect(reply.status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(noauthWarnings(server.output())).toHaveLength(1);
    expect(NOAUTH2_WARNING).toMatch(/anyone who can reach this server can claim any identity.*For development and tests only/);
  });

  it('warns once with PLACEMENT_WORKERS=2, from the primary, not once per worker', async () => {
    const server = await startServerProcess({ ...CLEAN_ENV, DATABASE_URL: db.url, PLACEMENT_WORKERS: '2' }, 90_000, ['--config-dir', noFiles]);
    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain('running 2 API workers');
    expect(noauthWarnings(server.output())).toHaveLength(1);
  });

  it('does not warn under keystone', async () => {
    const server = await startServerProcess({
      ...CLEAN_ENV, DATABASE_URL: db.url, PLACEMENT_AUTH_STRATEGY: 'keystone', PLACEMENT_KEYSTONE_AUTH_URL: 'http://127.0.0.1:9/v3',
      PLACEMENT_KEYSTONE_USERNAME: 'placement', PLACEMENT_KEYSTONE_PASSWORD: 'unused', PLACEMENT_KEYSTONE_PROJECT_NAME: 'service',
    }, 60_000, ['--config-dir', noFiles]);
    expect((await fetch(`${server.url}/resource_providers`)).status).toBe(401);
    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain('listening on');
    expect(noauthWarnings(server.output())).toHaveLength(0);
  });
});
