import { postmasterOf, treeCpuMs } from './versus/process-cpu.js';

/** CPU time used so far, in ms: the server's processes (its PLACEMENT_WORKERS too), null when gone, and PostgreSQL's. */
export interface CpuSample {
  readonly server: number | null;
  readonly database: number;
}

/**
 * CPU a round cost. A claim's work is split between Node and PostgreSQL; on a machine others
 * share, this (not wall time) says what the claims would cost on cores of their own.
 */
export function cpuSpent(before: CpuSample, after: CpuSample): { server: number | null; database: number } {
  return { server: before.server === null || after.server === null ? null : after.server - before.server, database: after.database - before.database };
}

/** Samples the server's CPU and PostgreSQL's, as bench:versus does (versus/process-cpu.ts). */
export async function cpuSampler(databaseUrl: string, serverPid: number | undefined) {
  const postmaster = await postmasterOf(databaseUrl);
  return {
    sample: (): CpuSample => ({ server: serverPid === undefined ? null : treeCpuMs(serverPid), database: treeCpuMs(postmaster) ?? NaN }),
  };
}
