import 'reflect-metadata';
import { Client } from 'pg';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { openDatabase } from '#placement/persistence/database.js';
import type { RebuildResult } from '#admin/rebuild/rebuild.js';
import { verifyReadModels } from '#admin/rebuild/verify.js';
import { formatCount, formatDuration } from '#admin/rebuild/progress.js';
import { writeLog } from './write-log.js';

/**
 * npm run bench:rebuild [-- --events N] [--runs R] [--verify] [--keep]
 * Writes a log of N events (default 1,000,000) straight into a fresh database, then rebuilds
 * every read model from it R times (default 3) as an operator does (`npm run admin -- rebuild`,
 * a process of its own) and reports events per second of each run and their median, which the
 * goal is checked on: on a shared machine one run can be a tenth off either way. --verify then
 * checks the result.
 *
 * The log is vacuumed before the first run, as a production log long since is: a log written a
 * moment ago would have its first reader set every row's hint bits, and autovacuum would come
 * for its million new rows in the middle of the measurement.
 */
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const GOAL = 50_000;

function parseArgs(argv: string[]) {
  const at = argv.indexOf('--events');
  const events = at >= 0 ? Number(argv[at + 1]) : 1_000_000;
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;
  if (!Number.isInteger(events) || events <= 0) throw new Error('--events needs a positive integer');
  if (!Number.isInteger(runs) || runs <= 0) throw new Error('--runs needs a positive integer');
  return { events, runs, verify: argv.includes('--verify'), keep: argv.includes('--keep') };
}

/** The repository's root, from this file compiled (dist/test/bench). */
const ROOT = resolve(__dirname, '../../..');

/** `npm run admin -- rebuild --json` on the database, with the flags the package gives it. */
function rebuildAsOperator(databaseUrl: string): Promise<RebuildResult & { processCpuSeconds: number }> {
  const child = spawn('npm', ['run', '-s', 'admin', '--', 'rebuild', '--json'], {
    cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  return new Promise((done, fail) => child.on('exit', (code) => {
    if (code === 0) done(JSON.parse(out));
    else fail(new Error(`npm run admin -- rebuild exited ${code}: ${(err || out).slice(-2000)}`));
  }));
}

/** What the log costs on disk: its tables with their indexes and TOAST, per event. */
async function bytesPerEvent(client: Client, events: number): Promise<string> {
  const { rows: [sizes] } = await client.query(`SELECT pg_table_size('es_events') AS rows, pg_indexes_size('es_events') AS indexes,
    pg_total_relation_size('es_streams') AS streams`);
  const [rows, indexes, streams] = [Number(sizes.rows), Number(sizes.indexes), Number(sizes.streams)];
  return `log on disk: ${formatCount((rows + indexes + streams) / events)} bytes per event (rows ${formatCount(rows / events)}, `
    + `indexes ${formatCount(indexes / events)}, streams' heads ${formatCount(streams / events)}; ${formatCount((rows + indexes + streams) / 1048576)} MB)`;
}

async function main() {
  const { events, runs, verify, keep } = parseArgs(process.argv.slice(2));
  const name = `pl_bench_rebuild_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase(url.toString(), 4);
  const print = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    let started = performance.now();
    const written = await writeLog(client, { events });
    print(`log: ${formatCount(written)} events written in ${formatDuration((performance.now() - started) / 1000)} (database ${name})`);
    await client.query('VACUUM (ANALYZE) es_events, es_streams');
    await client.query('CHECKPOINT');
    print(await bytesPerEvent(client, written));
    await client.end();

    const results = [];
    for (let run = 1; run <= runs; run++) {
      const result = await rebuildAsOperator(url.toString());
      results.push(result);
      // On a shared machine the wall clock also counts other work; the process's own CPU time does not.
      print(`run ${run}: ${formatCount(result.eventsPerSecond)} events/s; rebuild used ${formatDuration(result.processCpuSeconds)} of its process's CPU `
        + `in ${formatDuration(result.seconds)}; replay ${formatDuration(result.replaySeconds)} = ${formatCount(result.events / result.replaySeconds)} events/s, `
        + `${formatCount(result.rowsWritten)} rows written in ${formatDuration(result.writeSeconds)} = ${formatCount(result.rowsWritten / result.writeSeconds)} rows/s`);
    }
    const result = [...results].sort((a, b) => a.eventsPerSecond - b.eventsPerSecond)[Math.floor((results.length - 1) / 2)];
    const { rows } = await database.pool.query(`SELECT (SELECT count(*) FROM rm_resource_providers) AS providers,
      (SELECT count(*) FROM rm_consumers) AS consumers, (SELECT count(*) FROM rm_allocations) AS allocations,
      (SELECT count(*) FROM rm_usage_hours) AS usage_hours`);
    print(`read models: ${Object.entries(rows[0]).map(([k, v]) => `${formatCount(Number(v))} ${k}`).join(', ')}`);
    print(`REBUILD: ${formatCount(result.events)} events in ${formatDuration(result.seconds)} = ${formatCount(result.eventsPerSecond)} events/s, `
      + `the median of ${results.length} run(s) (${result.mode} replay; goal ${formatCount(GOAL)} events/s: ${result.eventsPerSecond >= GOAL ? 'met' : 'NOT met'})`);
    if (verify) {
      started = performance.now();
      const checked = await verifyReadModels(database.pool, url.toString(), database.eventStore);
      print(`VERIFY: ${checked.drift ? 'DRIFT' : 'clean'}, ${formatCount(checked.events)} events in ${formatDuration(checked.seconds)} `
        + `= ${formatCount(checked.events / checked.seconds)} events/s`);
      if (checked.drift) process.exitCode = 1;
    }
  } finally {
    await database.close();
    if (!keep) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
