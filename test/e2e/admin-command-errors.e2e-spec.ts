import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase } from '../support/database.js';

jest.setTimeout(60_000);

/** The built commands (`npm run build`), as the package's bins run them. */
const BIN = resolve(__dirname, '../../dist/apps/placement-admin/src');
const CLEAN_ENV = { PLACEMENT_AUTH_STRATEGY: '', PLACEMENT_POLICY_FILE: '', OS_PLACEMENT_CONFIG_DIR: '', LOG_LEVEL: '', HOST: '' };

/** Nothing listens on port 1; the passwords hold the characters that defeated the old redactions. */
const UNPARSABLE = 'postgres://placement:s3cr/t@pa55@127.0.0.1:1/placement';
const UNREACHABLE = 'postgres://placement:top@secret:x@127.0.0.1:1/placement';
const SECRETS = /s3cr|pa55|top@|secret:x/;
const STACK_LINE = /\n\s+at /;

describe('the admin commands print what failed, not a stack trace or a password', () => {
  let noFiles: string;
  beforeAll(() => { noFiles = mkdtempSync(join(tmpdir(), 'placement-noconf-')); });
  afterAll(() => rmSync(noFiles, { recursive: true, force: true }));

  function run(command: string, args: string[], env: Record<string, string>) {
    const child = spawn(process.execPath, [join(BIN, `${command}.js`), '--config-dir', noFiles, ...args], {
      env: { ...process.env, ...CLEAN_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    return new Promise<{ code: number | null; output: string }>((done) => child.on('exit', (code) => done({ code, output })));
  }

  it('placement-status upgrade check: 255 and the message, for a URL that does not parse or a database that does not answer', async () => {
    for (const url of [UNPARSABLE, UNREACHABLE]) {
      const { code, output } = await run('placement-status', ['upgrade', 'check'], { DATABASE_URL: url });
      expect(code).toBe(255);
      expect(output).toContain('Error:\ncannot read the database at postgres://placement:***@127.0.0.1:1/placement\ncaused by: ');
      expect(output).not.toMatch(STACK_LINE);
      expect(output).not.toMatch(SECRETS);
    }
  });

  it('placement-status gives the stack with --debug, or LOG_LEVEL=debug, still without the password', async () => {
    for (const [args, env] of [[['upgrade', 'check', '--debug'], {}], [['upgrade', 'check'], { LOG_LEVEL: 'debug' }]] as const) {
      const { code, output } = await run('placement-status', [...args], { DATABASE_URL: UNREACHABLE, ...env });
      expect(code).toBe(255);
      expect(output).toMatch(/Error: cannot read the database at postgres:\/\/placement:\*\*\*@127\.0\.0\.1:1\/placement\n\s+at /);
      expect(output).toMatch(/caused by: Error: connect ECONNREFUSED 127\.0\.0\.1:1\n\s+at /);
      expect(output).not.toMatch(SECRETS);
    }
  });

  it('placement-admin import names a source URL it cannot read without its password', async () => {
    const db = await createTestDatabase('pl_admin_err');
    try {
      const { code, output } = await run('main', ['import', '--from', 'mysql+pymysql://placement:s3cr/t@pa55@127.0.0.1:1/placement'], { DATABASE_URL: db.url });
      expect(code).toBe(2);
      expect(output).toContain('import: refused: malformed database URL: mysql+pymysql://placement:***@127.0.0.1:1/placement');
      expect(output).not.toMatch(SECRETS);
    } finally {
      await db.drop();
    }
  });
});
