import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import { statCpuMs } from '../measure.js';

/** CPU a server costs, in ms, split as the issue asks: the server, its database, and the rest of the host. */
export interface CpuSplit {
  readonly server: number;
  readonly database: number;
  /** Everything else the host's cores did meanwhile: the load generator and other tenants. */
  readonly other: number;
}

const TICK_MS = 10;

function parentOf(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    return null;
  }
}

/** A process and its descendants (uWSGI's master and workers; our cluster's workers). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree: number[] = [];
  const walk = (pid: number) => { tree.push(pid); for (const child of children.get(pid) ?? []) walk(child); };
  walk(root);
  return tree;
}

/** Busy time of every core since boot, in ms (/proc/stat: all but idle and iowait). */
function hostBusyMs(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return (user + nice + system + irq + softirq + steal) * TICK_MS;
}

/**
 * CPU a process has used so far, in ms: its threads' time on a core as the scheduler counts it,
 * in nanoseconds (/proc/PID/task/TID/schedstat), and that of the children it reaped, which only
 * the clock ticks of /proc/PID/stat keep. A tick is 10 ms, so a process's reading in ticks is up
 * to 10 ms short, and a window of a second over a dozen PostgreSQL backends read several percent
 * apart from run to run of the same work. A thread that ended is left out (the process's own
 * ticks keep it): the servers' threads live as long as they do. Ticks alone where the scheduler's
 * figures cannot be read; null when the process is gone.
 */
function processCpuMs(pid: number): number | null {
  const stat = statCpuMs(pid);
  if (stat === null) return null;
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // The thread ended since the listing.
      }
    }
    return ns / 1e6 + stat.reaped;
  } catch {
    return stat.own + stat.reaped;
  }
}

/**
 * CPU a process tree has used so far, in ms: each member's, and that of the children its members
 * reaped, so that a process which exits between two readings still counts (PostgreSQL's backends
 * come and go under upstream's pool; uWSGI may respawn a worker). Null when the root is gone.
 */
export function treeCpuMs(root: number): number | null {
  // The root first (processTree), each member read once.
  const members = processTree(root).map(processCpuMs);
  if (members[0] === null) return null;
  return members.reduce<number>((sum, ms) => sum + (ms ?? 0), 0);
}

/**
 * The postmaster of the PostgreSQL serving `databaseUrl`, on this host: the parent of a backend.
 * That backend, the asking's own, has been reaped when this returns, so that its CPU does not
 * land in the window measured next.
 */
export async function postmasterOf(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  let backend: number | undefined;
  try {
    backend = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const postmaster = parentOf(backend);
    if (postmaster === null) throw new Error(`PostgreSQL's backend ${backend} is not a process of this host: its CPU cannot be read`);
    return postmaster;
  } finally {
    await client.end();
    const deadline = Date.now() + 2_000;
    while (backend !== undefined && existsSync(`/proc/${backend}`) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 10));
  }
}

/**
 * Samples a server's process tree and PostgreSQL's (the postmaster, every process it started,
 * and those of them that exited meanwhile). All of PostgreSQL is counted, its background writers
 * and autovacuum included: the benches run one server at a time, so what PostgreSQL does
 * meanwhile is that server's doing. Counting only the backends connected to the server's
 * database at both readings missed those that exited in between, half of upstream's.
 */
export async function cpuMeter(serverPid: number, databaseUrl: string) {
  const postmaster = await postmasterOf(databaseUrl);
  const sample = () => ({ host: hostBusyMs(), server: treeCpuMs(serverPid) ?? NaN, database: treeCpuMs(postmaster) ?? NaN });
  return {
    /** Runs `work` and says what it cost. */
    async around<T>(work: () => Promise<T>): Promise<{ result: T; cpu: CpuSplit }> {
      const before = sample();
      const result = await work();
      const after = sample();
      const server = after.server - before.server;
      const database = after.database - before.database;
      return { result, cpu: { server, database, other: Math.max(0, after.host - before.host - server - database) } };
    },
  };
}
