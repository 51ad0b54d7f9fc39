import { startBenchServer } from '../bench-server.js';
import { createUpstreamDatabase, startUpstream, upstreamAvailability } from '../../support/upstream-placement/upstream-harness.js';

/** One server of a side-by-side run, on a fresh database of the shared PostgreSQL. */
export interface Contender {
  readonly name: 'ours' | 'upstream';
  readonly url: string;
  readonly pid: number;
  /** Its database, as node-postgres names it. */
  readonly databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * Ours: this build, or the one whose main.js `entry` names (bench:storm --against). `existing`: a
 * database already holding a cloud (kept at stop), else a fresh one.
 */
export async function startOurs(env: Record<string, string> = {}, nodeArgs: string[] = [], existing?: string, entry?: string): Promise<Contender> {
  const server = await startBenchServer(env, nodeArgs, existing ? 300_000 : 60_000, existing, entry);
  return { name: 'ours', url: server.url, pid: server.child.pid!, databaseUrl: server.databaseUrl, stop: () => server.stop() };
}

/**
 * Upstream Placement 8.0.0 from Debian's packages (the conformance kit's launcher: uWSGI with
 * 2 processes x 10 threads, as the figures of ../shared/reference/perfload-shapes.md) on PostgreSQL.
 * Its settings map from ours where both have one: randomized candidates for the claims.
 */
export async function startUpstreamContender(env: Record<string, string> = {}): Promise<Contender> {
  const availability = upstreamAvailability();
  if (!availability.ok) throw new Error(`upstream Placement cannot run here: ${availability.reason}`);
  const database = await createUpstreamDatabase('postgresql');
  const server = await startUpstream(database.url, 120_000, upstreamEnv(env));
  return {
    name: 'upstream', url: server.url, pid: server.pid,
    databaseUrl: database.url.replace(/^postgresql\+psycopg2:/, 'postgres:'),
    async stop() {
      await server.stop();
      await database.drop();
    },
  };
}

function upstreamEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (env.PLACEMENT_RANDOMIZE_ALLOCATION_CANDIDATES === 'true') out.OS_PLACEMENT__RANDOMIZE_ALLOCATION_CANDIDATES = 'True';
  return out;
}
