import { openDatabase } from '#placement/persistence/database.js';
import { PostgresEventStore } from '#event-store/index.js';
import { IncompleteConsumerIds } from '#admin/upstream-db/snapshot-reader.js';
import { importUpstream, ImportRefused, verifyImport } from '#admin/upstream-db/import-upstream.js';
import { exportToUpstream, ExportRefused } from '#admin/upstream-db/export-upstream.js';
import { remakeCandidateSnapshot } from '#placement/candidates/snapshot/admin-snapshot.js';
import { SourceSchemaError } from '#admin/upstream-db/snapshot-reader.js';
import { SourceUrlError } from '#admin/upstream-db/source-url.js';
import type { AdminIo } from './admin-io.js';
import { formatEvent } from './format.js';

export const MIGRATE_USAGE = `  import --from URL [--dry-run]
                      read an upstream Placement database (URL as in its placement.conf
                      [placement_database] connection: mysql+pymysql://... or postgresql://...)
                      in one snapshot and write it into this service's empty log
  import --verify --from URL
                      compare every entity of the source with what this service serves;
                      exits 1 on any difference, naming it
  export --to URL     write what this service serves into an empty upstream-schema database
                      (made by upstream's placement-manage db sync), the way back`;

const EXIT = { ok: 0, differ: 1, usage: 2, failed: 3 } as const;

/** `--name value` or `--name=value`; flags without a value are listed in `flags`. */
export function parseOptions(args: readonly string[], valued: readonly string[]): { values: Map<string, string>; flags: string[] } {
  const values = new Map<string, string>(), flags: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i].split(/=(.*)/s, 2);
    if (valued.includes(name)) values.set(name, inline ?? args[++i] ?? '');
    else flags.push(args[i]);
  }
  return { values, flags };
}

const incompleteIds = (env: NodeJS.ProcessEnv): IncompleteConsumerIds => ({
  projectId: env.PLACEMENT_INCOMPLETE_CONSUMER_PROJECT_ID || '00000000-0000-0000-0000-000000000000',
  userId: env.PLACEMENT_INCOMPLETE_CONSUMER_USER_ID || '00000000-0000-0000-0000-000000000000',
});

/** An error the operator can act on prints one line; anything else is a failure with its message. */
function failed(io: AdminIo, command: string, error: unknown): number {
  const known = error instanceof ImportRefused || error instanceof ExportRefused || error instanceof SourceSchemaError || error instanceof SourceUrlError;
  io.err(`${command}: ${known ? 'refused' : 'failed'}: ${error instanceof Error ? error.message : String(error)}`);
  return known ? EXIT.usage : EXIT.failed;
}

export async function runImport(args: readonly string[], url: string, env: NodeJS.ProcessEnv, io: AdminIo): Promise<number> {
  const { values, flags } = parseOptions(args, ['--from']);
  const unknown = flags.filter((flag) => !['--dry-run', '--verify'].includes(flag));
  const from = values.get('--from');
  if (!from || unknown.length > 0) {
    io.err(unknown.length > 0 ? `import: unknown option ${unknown[0]}` : 'import: --from URL is required');
    return EXIT.usage;
  }
  const say = (line: string) => io.out(`import: ${line}`);
  const database = await openDatabase(url, 4);
  try {
    if (flags.includes('--verify')) {
      const differences = await verifyImport(database.pool, { from, incomplete: incompleteIds(env), say });
      for (const line of differences) io.out(`import: DIFFERENT: ${line}`);
      io.out(differences.length === 0
        ? 'import: verify: every entity of the source matches what this service serves'
        : `import: verify: ${differences.length} difference(s)`);
      return differences.length === 0 ? EXIT.ok : EXIT.differ;
    }
    // No inline projections: the read models are made once, from the whole imported log, at the end.
    const store = new PostgresEventStore(database.pool);
    const imported = await importUpstream(database.pool, url, store, {
      from, dryRun: flags.includes('--dry-run'), incomplete: incompleteIds(env), say,
      report: (event) => say(formatEvent(event)),
    });
    if (imported.written) {
      // As after a rebuild: the API's first start reads this snapshot, not the whole imported log.
      const snapshot = await remakeCandidateSnapshot(database.pool, store);
      say(`candidate index snapshot of ${snapshot.events} events ${snapshot.stored ? 'stored' : 'not stored (a newer one is there)'} in ${snapshot.seconds.toFixed(1)} s`);
    }
    return EXIT.ok;
  } catch (error) {
    return failed(io, 'import', error);
  } finally {
    await database.close();
  }
}

export async function runExport(args: readonly string[], url: string, io: AdminIo): Promise<number> {
  const { values, flags } = parseOptions(args, ['--to']);
  const to = values.get('--to');
  if (!to || flags.length > 0) {
    io.err(flags.length > 0 ? `export: unknown option ${flags[0]}` : 'export: --to URL is required');
    return EXIT.usage;
  }
  const database = await openDatabase(url, 4);
  try {
    await exportToUpstream(database.pool, to, (line) => io.out(`export: ${line}`));
    return EXIT.ok;
  } catch (error) {
    return failed(io, 'export', error);
  } finally {
    await database.close();
  }
}
