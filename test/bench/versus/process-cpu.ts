import { readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import { cpuMsOf } from '../measure.js';

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

interface Sample {
  readonly host: number;
  readonly server: ReadonlyMap<number, number>;
  readonly backends: ReadonlyMap<number, number>;
}

function cpuOf(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const ms = cpuMsOf(pid);
    if (ms !== null) out.set(pid, ms);
  }
  return out;
}

const spent = (before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

/**
 * Samples a server's process tree and its database's backends (those connected to its database
 * now; a backend that exits between samples is lost, an undercount). Both servers of a
 * side-by-side run share one PostgreSQL, so only their own database's backends are counted.
 */
export async function cpuMeter(serverPid: number, databaseUrl: string) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const sample = async (): Promise<Sample> => {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    return { host: hostBusyMs(), server: cpuOf(processTree(serverPid)), backends: cpuOf(rows.map((r) => r.pid)) };
  };
  return {
    /** Runs `work` and says what it cost. */
    async around<T>(work: () => Promise<T>): Promise<{ result: T; cpu: CpuSplit }> {
      const before = await sample();
      const result = await work();
      const after = await sample();
      const server = spent(before.server, after.server);
      const database = spent(before.backends, after.backends);
      return { result, cpu: { server, database, other: Math.max(0, after.host - before.host - server - database) } };
    },
    close: () => client.end(),
  };
}
