import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from '../free-port.js';
import { postgresBinDir } from './binaries.js';

const run = promisify(execFile);

/** A primary and its synchronous streaming standby, two private clusters under /tmp on random ports. */
export interface PostgresPair {
  readonly primaryPort: number;
  readonly standbyPort: number;
  /** What a power cut does to the primary: SIGKILL to the postmaster and every one of its backends at once. */
  killPrimary(): Promise<void>;
  /** `pg_ctl promote`: the standby leaves recovery and accepts writes (timeline + 1). */
  promoteStandby(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The server refuses to run as root; as root every tool runs as the postgres account (the
 * clusters' directories are its own), otherwise as ourselves.
 */
async function as(tool: string, args: readonly string[]): Promise<string> {
  const bin = join(postgresBinDir()!, tool);
  const asRoot = process.getuid?.() === 0;
  const { stdout } = await run(asRoot ? 'runuser' : bin, asRoot ? ['-u', 'postgres', '--', bin, ...args] : [...args], { timeout: 60_000 });
  return stdout;
}

// fsync=off is safe here: a killed process loses nothing the kernel already has; only a power cut
// of the machine would, and that is not what is simulated. It keeps the test quick on a busy machine.
// wal_retrieve_retry_interval: a standby that lost its primary retries every 5 s by default, which
// a promotion can wait out; Patroni-managed standbys are promoted by their own loop, not timed here.
const COMMON_SETTINGS = `
listen_addresses = '127.0.0.1'
wal_level = replica
max_wal_senders = 5
hot_standby = on
fsync = off
max_connections = 60
wal_retrieve_retry_interval = 200ms
`;

async function startCluster(dataDir: string, port: number, socketDir: string, extra: readonly string[] = []): Promise<void> {
  await as('pg_ctl', ['-D', dataDir, '-l', `${dataDir}.log`, '-w', '-t', '60', '-o',
    ['-p', String(port), '-c', `unix_socket_directories=${socketDir}`, ...extra].join(' '), 'start']);
}

async function query<T>(port: number, sql: string): Promise<T[]> {
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * initdb, start the primary, pg_basebackup -R a standby, start it, and only then make the
 * primary's commits wait for it (synchronous_standby_names, in the primary's own file, so the
 * standby, once promoted, does not wait for a standby it no longer has — as Patroni does).
 * Resolves once the standby streams in the 'sync' state, with `database` created.
 */
export async function startPostgresPair(database: string): Promise<PostgresPair> {
  const root = mkdtempSync('/tmp/pl-failover-');
  if (process.getuid?.() === 0) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    chownSync(root, uid, gid);
  }
  const primary = join(root, 'primary');
  const standby = join(root, 'standby');
  const primaryPort = await freePort();
  let standbyPort = await freePort();
  while (standbyPort === primaryPort) standbyPort = await freePort();
  const stopBoth = async () => {
    for (const dir of [standby, primary]) await as('pg_ctl', ['-D', dir, '-m', 'immediate', 'stop']).catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await as('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    appendAsPostgres(join(primary, 'postgresql.conf'), COMMON_SETTINGS);
    await startCluster(primary, primaryPort, root);
    await query(primaryPort, `CREATE DATABASE ${database}`);
    await as('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standby, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
    // cluster_name becomes the walreceiver's application_name: the name the primary waits for.
    await startCluster(standby, standbyPort, root, ['-c', 'cluster_name=standby1']);
    appendAsPostgres(join(primary, 'postgresql.conf'), "synchronous_standby_names = 'standby1'\n");
    await as('pg_ctl', ['-D', primary, 'reload']);
    await waitFor(async () => (await query<{ sync_state: string }>(primaryPort, 'SELECT sync_state FROM pg_stat_replication'))[0]?.sync_state === 'sync', 30_000, 'the standby to stream synchronously');
  } catch (error) {
    // A half-made pair would outlive the test: stop what started, say where it failed.
    const logs = ['primary', 'standby'].map((name) => { try { return readFileSync(join(root, `${name}.log`), 'utf8').slice(-2000); } catch { return ''; } });
    await stopBoth();
    throw new Error(`${(error as Error).message}\n${logs.join('\n')}`);
  }
  return {
    primaryPort,
    standbyPort,
    killPrimary: async () => {
      const postmaster = Number(readFileSync(join(primary, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const children = childrenOf(postmaster);
      process.kill(postmaster, 'SIGKILL');
      for (const pid of children) {
        try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
      }
    },
    promoteStandby: async () => {
      await as('pg_ctl', ['-D', standby, '-w', '-t', '30', 'promote']);
    },
    // pg_ctl stop on the killed primary finds its postmaster gone and changes nothing.
    stop: stopBoth,
  };
}

/** Appends to a file of a cluster (owned by postgres; root may write it, the owner stays). */
function appendAsPostgres(file: string, text: string): void {
  appendFileSync(file, text);
}

/** The processes whose parent is `pid`, from /proc: the postmaster's backends and helpers. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) === pid) found.push(Number(entry));
    } catch { /* exited meanwhile */ }
  }
  return found;
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch { /* not yet */ }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
