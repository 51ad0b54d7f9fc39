import { Pool } from 'pg';
import { openDatabase } from '#placement/persistence/database.js';
import { READ_MODELS_SCHEMA, searchPathOption } from '#placement/persistence/read-model-schema.js';
import { AdminEvent, Reporter } from '#admin/rebuild/admin-events.js';
import { formatCount, formatDuration } from '#admin/rebuild/progress.js';
import { rebuildReadModels } from '#admin/rebuild/rebuild.js';
import { hasDrift } from '#admin/rebuild/row-diff.js';
import { readStatus } from '#admin/rebuild/status.js';
import { verifyReadModels } from '#admin/rebuild/verify.js';
import { remakeCandidateSnapshot, SnapshotCheck, verifyCandidateSnapshot } from '#placement/candidates/snapshot/admin-snapshot.js';
import type { EventStore } from '#event-store/index.js';
import { ConfigError } from '#platform/config.js';
import { AdminLog, openAdminLog } from './admin-log.js';
import { formatEvent, formatStatus, formatTableDiff } from './format.js';
import { MIGRATE_USAGE, runExport, runImport } from './migrate-commands.js';
import { commandConfig } from './upstream/command-config.js';
import type { AdminIo } from './admin-io.js';
import { runUndo, UNDO_USAGE } from './undo-commands.js';
import { indexLookups, LOOKUP_INDEX_USAGE } from './lookup-index-command.js';

export const EXIT = { ok: 0, drift: 1, usage: 2, failed: 3 } as const;

const USAGE = `usage: placement-admin <command> [options] [--config-file PATH]... [--config-dir DIR]...
       (the database: DATABASE_URL, else placement.conf's [placement_database] connection)

commands:
  status              the log's head and each projection's checkpoint and lag
  verify [--sql]      replay the log and compare it with the live read models, row by row,
                      and the stored candidate index snapshot with the log up to its position;
                      exits 1 when they drift apart
  rebuild [--sql]     rebuild every read model from the log into a new schema and swap it in
                      while the API keeps serving; appends pause only for the swap; then store
                      a new candidate index snapshot, replayed from the whole log
${LOOKUP_INDEX_USAGE}
${MIGRATE_USAGE}
${UNDO_USAGE}
options:
  --sql               replay through the projections' SQL instead of in memory (slower)
  --json              status, verify and rebuild: print the result as JSON (rebuild adds the
                      process's CPU seconds)`;

/**
 * The whole CLI, minus process wiring: returns the exit code. `externalLog` stands in for the
 * configured KurrentDB (a test's in-memory one).
 */
export async function runAdmin(
  allArgs: readonly string[], processEnv: NodeJS.ProcessEnv, io: AdminIo, observe?: Reporter, externalLog?: EventStore,
): Promise<number> {
  // placement.conf as the server reads it (--config-file, --config-dir, OS_PLACEMENT_CONFIG_DIR, /etc/placement).
  const config = commandConfig(allArgs, processEnv, io);
  if (!config.ok) return EXIT.usage;
  const { env, rest: argv } = config;
  const [command, ...rest] = argv;
  if (command === 'import' || command === 'export') return migrate(command, rest, env, io);
  if (command === 'revert' || command === 'restore') return runUndo(command, rest, env, io);
  const flags = new Set(rest);
  const unknown = rest.filter((flag) => !['--sql', '--json'].includes(flag));
  if (!command || command === '--help' || command === 'help') {
    io.out(USAGE);
    return command ? EXIT.ok : EXIT.usage;
  }
  if (!['status', 'verify', 'rebuild', 'index-lookups'].includes(command) || unknown.length > 0) {
    io.err(unknown.length > 0 ? `unknown option ${unknown[0]}` : `unknown command ${command}`);
    io.err(USAGE);
    return EXIT.usage;
  }
  const url = databaseUrl(env, io);
  if (!url) return EXIT.usage;
  const report: Reporter = async (event: AdminEvent) => {
    io.out(`${command}: ${formatEvent(event)}`);
    await observe?.(event);
  };
  const log = (pool: Pool) => openAdminLog(env, pool, externalLog);
  try {
    if (command === 'status') return await status(url, log, io, flags.has('--json'));
    if (command === 'index-lookups') return await indexLookups(url, log, io).then(() => EXIT.ok);
    if (command === 'verify') return await verify(url, log, io, report, flags.has('--sql'), flags.has('--json'));
    return await rebuild(url, log, io, report, flags.has('--sql'), flags.has('--json'));
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`${command}: configuration error: ${error.message}`);
      return EXIT.usage;
    }
    io.err(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  }
}

function databaseUrl(env: NodeJS.ProcessEnv, io: AdminIo): string | undefined {
  const url = env.DATABASE_URL;
  if (!url) {
    io.err('DATABASE_URL is not set, nor [placement_database] connection in a --config-file '
      + '(the embedded database of `npm start` is postgres://placement@127.0.0.1:54329/placement, password "placement")');
  }
  return url;
}

/** import and export: the road from upstream Placement's database to this service, and back. */
async function migrate(command: 'import' | 'export', args: readonly string[], env: NodeJS.ProcessEnv, io: AdminIo): Promise<number> {
  if (args.includes('--help')) {
    io.out(USAGE);
    return EXIT.ok;
  }
  const url = databaseUrl(env, io);
  if (!url) return EXIT.usage;
  return command === 'import' ? runImport(args, url, env, io) : runExport(args, url, io);
}

/** Read-only: no migrations run, so it also describes a database the server has not started on. */
type LogOpener = (pool: Pool) => Promise<AdminLog>;

async function status(url: string, openLog: LogOpener, io: AdminIo, json: boolean): Promise<number> {
  const pool = new Pool({ connectionString: url, max: 2, options: searchPathOption(READ_MODELS_SCHEMA) });
  try {
    const log = await openLog(pool);
    const result = await readStatus(pool, log.store, log.mode).finally(() => log.close());
    if (json) io.out(JSON.stringify(result, null, 2));
    else for (const line of formatStatus(result)) io.out(line);
    return EXIT.ok;
  } finally {
    await pool.end();
  }
}

async function verify(url: string, openLog: LogOpener, io: AdminIo, report: Reporter, sql: boolean, json: boolean): Promise<number> {
  const database = await openDatabase(url, 4, 'async');
  const log = await openLog(database.pool).catch(async (error) => { await database.close(); throw error; });
  try {
    const result = await verifyReadModels(database.pool, url, log.store, { report: json ? undefined : report, sql, mode: log.mode });
    const snapshot = await verifyCandidateSnapshot(database.pool, log.store);
    const drift = result.drift || snapshot.status === 'mismatch';
    if (json) {
      io.out(JSON.stringify({ ...result, drift, candidateSnapshot: snapshot }, null, 2));
    } else {
      for (const line of formatSnapshotCheck(snapshot)) io.out(line);
      for (const table of result.tables) for (const line of formatTableDiff(table)) io.out(line);
      for (const table of result.unchecked) io.out(`${table}: not checked (no replay accounts for it)`);
      for (const bad of result.snapshots.invalid) io.out(`snapshot of ${bad.stream} at revision ${bad.revision}: ${bad.reason}`);
      io.out(`as_of snapshots: ${result.snapshots.checked} checked, ${result.snapshots.invalid.length} contradicted by the log (never used; rebuild clears them)`);
      const drifted = result.tables.filter(hasDrift).length;
      io.out(result.drift
        ? `verify: DRIFT in ${drifted} of ${result.tables.length} tables (${formatCount(result.events)} events replayed in ${formatDuration(result.seconds)})`
        : `verify: the read models match the log (${formatCount(result.events)} events, ${result.tables.length} tables, ${formatDuration(result.seconds)})`);
    }
    return drift ? EXIT.drift : EXIT.ok;
  } finally {
    await log.close();
    await database.close();
  }
}

function formatSnapshotCheck(check: SnapshotCheck): string[] {
  if (check.status === 'none') return ['verify: no candidate index snapshot stored (the API replays the log at start)'];
  if (check.status === 'unusable') return check.reasons.map((why) => `verify: candidate index snapshot unusable, the API replays instead: ${why}`);
  if (check.status === 'match') return [`verify: the candidate index snapshot matches the log up to its position (${formatCount(check.events)} events, ${formatDuration(check.seconds)})`];
  return [`verify: DRIFT in the candidate index snapshot (${formatCount(check.events)} events):`, ...check.differences.map((line) => `  ${line}`)];
}

async function rebuild(url: string, openLog: LogOpener, io: AdminIo, report: Reporter, sql: boolean, json: boolean): Promise<number> {
  const database = await openDatabase(url, 4, 'async');
  const log = await openLog(database.pool).catch(async (error) => { await database.close(); throw error; });
  try {
    const cpu = process.cpuUsage();
    const result = await rebuildReadModels(database.pool, url, log.store, { report: json ? undefined : report, sql });
    // Its CPU is counted apart: the rebuild bench measures the read models' rebuild.
    const used = process.cpuUsage(cpu);
    if (!json) await report({ kind: 'step', message: 'storing a candidate index snapshot replayed from the log' });
    const snapshot = await remakeCandidateSnapshot(database.pool, log.store);
    if (json) {
      // The whole process's, the usage rows thread included: on a busy machine, what the rebuild itself cost.
      io.out(JSON.stringify({ ...result, processCpuSeconds: (used.user + used.system) / 1e6, candidateSnapshot: snapshot }, null, 2));
      return EXIT.ok;
    }
    io.out(`rebuild: done: ${formatCount(result.events)} events in ${formatDuration(result.seconds)} `
      + `(${formatCount(result.eventsPerSecond)} events/s, ${result.mode} replay); ${formatCount(result.caughtUp)} events caught up; `
      + `appends waited ${result.lockedMs.toFixed(0)} ms`);
    io.out(`rebuild: candidate index snapshot of ${formatCount(snapshot.events)} events ${snapshot.stored ? 'stored' : 'not stored (a newer one is there)'} `
      + `in ${formatDuration(snapshot.seconds)}`);
    if (result.mode === 'memory') {
      io.out(`rebuild: replay ${formatDuration(result.replaySeconds)} (${formatCount(result.events / Math.max(result.replaySeconds, 1e-9))} events/s), `
        + `rows ${formatDuration(result.writeSeconds)} (${formatCount(result.rowsWritten)} rows, ${formatCount(result.rowsWritten / Math.max(result.writeSeconds, 1e-9))} rows/s)`);
    }
    return EXIT.ok;
  } finally {
    await log.close();
    await database.close();
  }
}
