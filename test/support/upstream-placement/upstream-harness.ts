import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { createTestDatabase } from '../database.js';
import { waitUntilServing } from '../server-process.js';

/** The conformance kit's launcher of upstream Placement 8.0.0 (Debian's package under uWSGI), as .ci/run finds it. */
export const UPSTREAM_SCRIPT = resolve(process.env.SHARED_DIR ?? resolve(checkoutRoot(), '../shared'), 'conformance/servers/upstream-placement.sh');

/** The checkout, found from the sources (jest) and from dist/ (the benches) alike. */
function checkoutRoot(): string {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return resolve(__dirname, '../../..');
}

/** Shell helpers beside this file in the sources (tsc copies no .sh into dist/). */
const HERE = join(checkoutRoot(), 'test/support/upstream-placement');

export type UpstreamDatabaseKind = 'mariadb' | 'postgresql';
export type Availability = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Whether upstream Placement can run here, decided synchronously while jest loads the spec (as
 * the Keystone e2e does): PLACEMENT_E2E_UPSTREAM=off skips; missing Debian packages are installed
 * when we are root, otherwise the reason is the installer's last line.
 */
export function upstreamAvailability(): Availability {
  if (process.env.PLACEMENT_E2E_UPSTREAM === 'off') return { ok: false, reason: 'PLACEMENT_E2E_UPSTREAM=off' };
  if (!existsSync(UPSTREAM_SCRIPT)) return { ok: false, reason: `${UPSTREAM_SCRIPT} not found (set SHARED_DIR)` };
  // Installing the packages can take minutes on a machine that has none of them.
  const run = spawnSync(join(HERE, 'install-upstream.sh'), { encoding: 'utf8', timeout: 15 * 60_000 });
  if (run.status !== 0) {
    const why = `${run.stdout ?? ''}\n${run.stderr ?? ''}`.trim().split('\n').pop() || run.error?.message || `exit ${run.status ?? run.signal}`;
    return { ok: false, reason: why };
  }
  return { ok: true };
}

/** MariaDB must already run (.ci/run starts it); without it only the MariaDB half is skipped. */
export function mariadbAvailability(): Availability {
  const ping = spawnSync('mysqladmin', [...mysqlAdminArgs(), 'ping'], { encoding: 'utf8', timeout: 10_000 });
  if (ping.status === 0) return { ok: true };
  return { ok: false, reason: `MariaDB does not answer \`mysqladmin ping\`: ${(ping.stderr || ping.error?.message || '').trim().split('\n').pop()}` };
}

/** A fresh database for upstream, named as upstream's placement.conf would name it. */
export interface UpstreamDatabase {
  readonly kind: UpstreamDatabaseKind;
  /** `[placement_database] connection`: mysql+pymysql://… or postgresql+psycopg2://… */
  readonly url: string;
  drop(): Promise<void>;
}

export async function createUpstreamDatabase(kind: UpstreamDatabaseKind): Promise<UpstreamDatabase> {
  if (kind === 'postgresql') {
    const db = await createTestDatabase('pl_upstream');
    return { kind, url: db.url.replace(/^postgres(ql)?:\/\//, 'postgresql+psycopg2://'), drop: () => db.drop() };
  }
  const name = `pl_upstream_${randomBytes(6).toString('hex')}`;
  // A user with a password: pymysql speaks TCP, where root has no password-less login everywhere.
  mysql(`CREATE DATABASE ${name} CHARACTER SET utf8mb4;
    CREATE USER IF NOT EXISTS '${MYSQL_USER}'@'127.0.0.1' IDENTIFIED BY '${MYSQL_USER}';
    CREATE USER IF NOT EXISTS '${MYSQL_USER}'@'localhost' IDENTIFIED BY '${MYSQL_USER}';
    GRANT ALL ON ${name}.* TO '${MYSQL_USER}'@'127.0.0.1';
    GRANT ALL ON ${name}.* TO '${MYSQL_USER}'@'localhost';`);
  return { kind, url: `mysql+pymysql://${MYSQL_USER}:${MYSQL_USER}@127.0.0.1/${name}`, drop: async () => mysql(`DROP DATABASE IF EXISTS ${name}`) };
}

const MYSQL_USER = 'pl_proof';

/** Admin access to MariaDB: root over the local socket unless PLACEMENT_E2E_MYSQL_ADMIN_ARGS says otherwise. */
function mysqlAdminArgs(): string[] {
  return (process.env.PLACEMENT_E2E_MYSQL_ADMIN_ARGS ?? '-uroot').split(' ').filter(Boolean);
}

function mysql(sql: string): void {
  const run = spawnSync('mysql', [...mysqlAdminArgs(), '-e', sql], { encoding: 'utf8', timeout: 30_000 });
  if (run.status !== 0) throw new Error(`mysql: ${run.stderr || run.error?.message}`);
}

export interface UpstreamServer {
  readonly url: string;
  /** The launcher's pid; uWSGI's master and workers are its descendants. */
  readonly pid: number;
  readonly output: () => string;
  stop(): Promise<void>;
}

/**
 * upstream-placement.sh on `databaseUrl` with noauth2, in its own process group; resolves once
 * GET / answers. Its sync_on_startup creates the schema and the standard classes and traits.
 */
export async function startUpstream(databaseUrl: string, timeoutMs = 60_000, extraEnv: Record<string, string> = {}): Promise<UpstreamServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('PLACEMENT_')));
  const child = spawn(UPSTREAM_SCRIPT, [], {
    env: { ...env, ...extraEnv, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, PLACEMENT_AUTH_STRATEGY: 'noauth2' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout!.on('data', (d) => (log = tail(log + d)));
  child.stderr!.on('data', (d) => (log = tail(log + d)));
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  // A killed jest run must not leave uWSGI behind.
  const onExit = () => signal(child, 'SIGKILL');
  process.once('exit', onExit);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(child, url, timeoutMs, () => log);
  } catch (error) {
    signal(child, 'SIGKILL');
    throw error;
  }
  return {
    url,
    pid: child.pid!,
    output: () => log,
    stop: async () => {
      process.removeListener('exit', onExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      signal(child, 'SIGTERM');
      const late = setTimeout(() => signal(child, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(late);
    },
  };
}

/** To the whole group: the script, uWSGI's master and its workers. */
function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try { process.kill(-child.pid!, name); } catch { /* already gone */ }
}

function tail(text: string): string {
  return text.length > 200_000 ? text.slice(-100_000) : text;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}
