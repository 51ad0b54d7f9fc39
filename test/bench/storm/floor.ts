import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { BenchClient, inParallel } from '../http.js';
import { Client } from 'pg';
import { createTestDatabase } from '../../support/database.js';
import { cpuMeter } from '../versus/process-cpu.js';
import { loadConfig } from '#platform/config.js';
import type { StormResult } from './scheduler.js';

/** Built beside this file; from the sources (jest), in the build. */
const FLOOR_SERVER = __filename.endsWith('.ts')
  ? resolve(__dirname, '../../../dist/test/bench/storm/floor-server.js')
  : resolve(__dirname, 'floor-server.js');

/** What ours' storm sent and got: as many requests, of these sizes, are what the floor answers. */
export interface Traffic {
  readonly gets: number;
  readonly puts: number;
  /** Mean bytes of a GET's answer and of a PUT's body. */
  readonly getBytes: number;
  readonly putBytes: number;
}

export function trafficOf(result: StormResult): Traffic {
  const { gets, puts } = result;
  return { gets: gets.length, puts: puts.length, getBytes: result.getBytes / Math.max(1, gets.length), putBytes: result.putBytes / Math.max(1, puts.length) };
}

/** The floor's CPU per instance: its server's, and its database's backends'. */
export interface Floor {
  readonly server: number;
  readonly database: number;
}

/**
 * The stack's own cost of the storm: a bare node:http server (storm/floor-server.ts) answering as
 * many GETs and PUTs, with answers and bodies of the same mean sizes, from as many schedulers on
 * new connections, by the same client, each GET reading the head of a table and each PUT
 * inserting its body there, committed, on a database of its own. Its CPU per instance, and
 * PostgreSQL's, is what any Node server on PostgreSQL pays before doing the work, so it shows how
 * much of ours is left to cut, and where.
 */
export async function stackFloor(traffic: Traffic, instances: number, schedulers: number): Promise<Floor> {
  const size = Math.round(traffic.getBytes);
  const database = await createTestDatabase('pl_bench_floor');
  let exited: Promise<unknown> = Promise.resolve();
  let child: ChildProcess | undefined;
  try {
    await createFloorLog(database.url);
    // The pool ours runs with under this environment (PLACEMENT_DB_POOL_SIZE or its default).
    const poolSize = loadConfig(process.env).dbPoolSize;
    child = spawn(process.execPath, [FLOOR_SERVER, String(size), database.url, String(poolSize)], { stdio: ['ignore', 'pipe', 'inherit'] });
    exited = once(child, 'exit');
    const [line] = await once(child.stdout!, 'data') as [Buffer];
    const client = new BenchClient(`http://127.0.0.1:${Number(line.toString().trim())}`, '1.36', false, true);
    const body = { pad: 'x'.repeat(Math.max(0, Math.round(traffic.putBytes) - 10)) };
    const rounds = Math.max(traffic.gets, traffic.puts);
    const round = async (i: number) => {
      if (i < traffic.gets) {
        const { bytes } = await client.expect('GET', '/', undefined, [200]);
        if (bytes.length !== size) throw new Error(`the floor server answered ${bytes.length} bytes, not ${size}`);
      }
      if (i < traffic.puts) await client.expect('PUT', '/', body, [204]);
    };
    // As ours was measured: after a warm-up, here a tenth of the rounds.
    const warmup = Math.ceil(rounds / 10);
    await inParallel(warmup, schedulers, round);
    const meter = await cpuMeter(child.pid!, database.url);
    const { cpu } = await meter.around(() => inParallel(rounds, schedulers, round));
    client.close();
    await assertWritten(database.url, Math.min(warmup, traffic.puts) + traffic.puts);
    return { server: cpu.server / instances, database: cpu.database / instances };
  } finally {
    child?.kill();
    await exited;
    await database.drop();
  }
}

/** `work` on a connection of its own to `url`, closed after. */
async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const createFloorLog = (url: string) =>
  withClient(url, (client) => client.query('CREATE TABLE floor_log (position bigserial PRIMARY KEY, body jsonb NOT NULL)'));

/** Every PUT the floor acknowledged was written: a floor that skipped its work would look cheap. */
async function assertWritten(url: string, puts: number): Promise<void> {
  const { rows } = await withClient(url, (client) => client.query<{ n: number }>('SELECT count(*)::int AS n FROM floor_log'));
  if (rows[0].n !== puts) throw new Error(`the floor server acknowledged ${puts} PUTs and wrote ${rows[0].n}`);
}
