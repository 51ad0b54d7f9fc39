import { Client } from 'pg';
import { cpuMsOf } from './measure.js';
import { processTree } from './versus/process-cpu.js';

/** CPU time used so far, in ms: the server's processes (its PLACEMENT_WORKERS too), and each database backend by pid. */
export interface CpuSample {
  readonly server: number | null;
  readonly backends: ReadonlyMap<number, number>;
}

/**
 * CPU a round cost. A claim's work is split between Node and PostgreSQL; on a machine others
 * share, this (not wall time) says what the claims would cost on cores of their own. A backend
 * that appears during the round counts from zero; one that exits during it is lost (an undercount).
 */
export function cpuSpent(before: CpuSample, after: CpuSample): { server: number | null; database: number } {
  let database = 0;
  for (const [pid, ms] of after.backends) database += ms - (before.backends.get(pid) ?? 0);
  return { server: before.server === null || after.server === null ? null : after.server - before.server, database };
}

/** Samples the server's CPU and that of every backend connected to its database (Linux /proc). */
export async function cpuSampler(databaseUrl: string, serverPid: number | undefined) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  return {
    async sample(): Promise<CpuSample> {
      const { rows } = await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      const backends = new Map<number, number>();
      for (const { pid } of rows) {
        const ms = cpuMsOf(pid);
        if (ms !== null) backends.set(pid, ms);
      }
      return { server: serverCpuMs(serverPid), backends };
    },
    close: () => client.end(),
  };
}

/** The server process and its workers, if any; null when it is gone. */
function serverCpuMs(pid: number | undefined): number | null {
  if (pid === undefined || cpuMsOf(pid) === null) return null;
  return processTree(pid).reduce((sum, member) => sum + (cpuMsOf(member) ?? 0), 0);
}
