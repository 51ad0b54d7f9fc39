import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { BenchClient, inParallel } from '../http.js';
import { cpuMsOf } from '../measure.js';
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

/**
 * Node's own cost of the storm's HTTP: a bare node:http server (storm/floor-server.ts) answering as
 * many GETs and PUTs, with answers and bodies of the same mean sizes, from as many schedulers on
 * new connections, by the same client. Its CPU per instance is what any Node server pays before
 * doing anything, so it shows how much of ours is left to cut.
 */
export async function httpFloor(traffic: Traffic, instances: number, schedulers: number): Promise<number> {
  const size = Math.round(traffic.getBytes);
  const child = spawn(process.execPath, [FLOOR_SERVER, String(size)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [line] = await once(child.stdout!, 'data') as [Buffer];
    const client = new BenchClient(`http://127.0.0.1:${Number(line.toString().trim())}`, '1.36', false, true);
    const body = { pad: 'x'.repeat(Math.max(0, Math.round(traffic.putBytes) - 10)) };
    const rounds = Math.max(traffic.gets, traffic.puts);
    const round = async (i: number) => {
      if (i < traffic.gets) {
        const { body: answer } = await client.expect('GET', '/', undefined, [200]);
        if (answer.length !== size) throw new Error(`the floor server answered ${answer.length} bytes, not ${size}`);
      }
      if (i < traffic.puts) await client.expect('PUT', '/', body, [204]);
    };
    // As ours was measured: after a warm-up, here a tenth of the rounds.
    await inParallel(Math.ceil(rounds / 10), schedulers, round);
    const before = cpuMsOf(child.pid);
    await inParallel(rounds, schedulers, round);
    const after = cpuMsOf(child.pid);
    client.close();
    if (before === null || after === null) throw new Error('the floor server exited');
    return (after - before) / instances;
  } finally {
    child.kill();
  }
}
