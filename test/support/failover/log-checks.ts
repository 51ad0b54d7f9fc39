import { Client } from 'pg';
import { adminJson } from './admin.js';

/** Every stream's revisions gap-free and unique, every position once: the log as a whole. */
export async function logIntegrity(databaseUrl: string): Promise<{ broken_streams: number; duplicate_positions: number }> {
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const { rows: [log] } = await sql.query(`SELECT
        (SELECT count(*) FROM (SELECT stream_id FROM es_events GROUP BY stream_id
           HAVING max(revision) + 1 <> count(DISTINCT revision) OR count(*) <> count(DISTINCT revision)) s)::int AS broken_streams,
        (SELECT count(*) - count(DISTINCT position) FROM es_events)::int AS duplicate_positions`);
    return log;
  } finally {
    await sql.end();
  }
}

/**
 * `placement-admin status` until every projection's checkpoint is the log's head (an asynchronous
 * projector may still be applying the last writes), for up to `timeoutMs`: what it last said.
 */
export async function checkpointsAtHead(databaseUrl: string, timeoutMs = 10_000): Promise<Array<{ name: string; lag: number; atHead: boolean }>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await adminJson(databaseUrl, 'status');
    const head = JSON.stringify(status.result?.log?.head);
    const projections = (status.result?.projections ?? []).map((p: { name: string; lag: number; checkpoint: unknown }) => ({
      name: p.name, lag: p.lag, atHead: JSON.stringify(p.checkpoint) === head,
    }));
    if (status.code === 0 && projections.length > 0 && projections.every((p: { lag: number; atHead: boolean }) => p.lag === 0 && p.atHead)) return projections;
    if (Date.now() > deadline) return projections;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
