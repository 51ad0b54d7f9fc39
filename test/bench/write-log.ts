import type { Client } from 'pg';
import { SyntheticEvent, syntheticLog } from './rebuild-log.js';

const CHUNK = 10_000;

export interface WriteLogOptions {
  /** Stop once at least this many events of the synthetic cloud's life were generated. */
  readonly events: number;
  /** Events of that life already in the log (an earlier call's count): generated again, not written. */
  readonly skip?: number;
  /** Simulated time between two transactions, so usage falls into many hours as in a real cloud. */
  readonly tickMs?: number;
}

/**
 * The synthetic cloud's log (rebuild-log.ts) as the store writes it, a chunk per statement: no
 * projection runs, that is the rebuild's job. The generator is deterministic, so a longer run
 * after `skip` events grows the same cloud's log: same providers and consumers, more churn.
 */
export async function writeLog(client: Client, options: WriteLogOptions): Promise<number> {
  const skip = options.skip ?? 0;
  const tickMs = options.tickMs ?? 1500;
  const revisions = new Map<string, number>();
  let clock = Date.now() - 30 * 24 * 3_600_000;
  let columns: [string[], number[], string[], string[], string[]] = [[], [], [], [], []];
  let generated = 0;
  const flush = async () => {
    if (columns[0].length === 0) return;
    await client.query(
      `INSERT INTO es_events (stream_id, revision, type, data, metadata, recorded_at)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::jsonb[], '{}'::jsonb[] || array_fill('{"requestId":"bench"}'::jsonb, ARRAY[cardinality($1)]), $5::timestamptz[])`,
      columns);
    columns = [[], [], [], [], []];
  };
  for (const tx of syntheticLog({ events: options.events, providers: 10_000, liveConsumers: 80_000 })) {
    clock += tickMs;
    const at = new Date(clock).toISOString();
    for (const event of tx as SyntheticEvent[]) {
      const revision = (revisions.get(event.stream) ?? -1) + 1;
      revisions.set(event.stream, revision);
      if (generated++ < skip) continue;
      columns[0].push(event.stream);
      columns[1].push(revision);
      columns[2].push(event.type);
      columns[3].push(JSON.stringify(event.data));
      columns[4].push(at);
    }
    if (columns[0].length >= CHUNK) await flush();
  }
  await flush();
  const streams = [...revisions];
  for (let i = 0; i < streams.length; i += 50_000) {
    const part = streams.slice(i, i + 50_000);
    await client.query(
      `INSERT INTO es_streams (stream_id, revision) SELECT * FROM unnest($1::text[], $2::bigint[])
       ON CONFLICT (stream_id) DO UPDATE SET revision = EXCLUDED.revision`,
      [part.map(([s]) => s), part.map(([, r]) => r)]);
  }
  return generated - skip;
}
