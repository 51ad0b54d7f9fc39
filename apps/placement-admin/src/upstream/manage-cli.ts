import { Pool } from 'pg';
import { openDatabase } from '#placement/persistence/database.js';
import { READ_MODELS_SCHEMA } from '#placement/persistence/read-model-schema.js';
import { CommandIo, commandConfig, databaseUrlOf } from './command-config.js';
import { prettyTable } from './pretty-table.js';

const USAGE = `usage: placement-manage [--config-file PATH]... [--config-dir DIR]... db {sync,version,online_data_migrations}

commands:
  db sync                     create or migrate the schema (the event log's tables, the read models'
                              migrations, the standard resource classes and traits), as the server
                              does at start; safe to run again
  db version                  print the schema version: the newest read-model migration applied
  db online_data_migrations   accepted for deployment tools; Placement Ledger has none to run
                              [--max-count N]
options:
  --config-file PATH          placement.conf to read (repeatable; later files win)
  --config-dir DIR            read every *.conf in DIR, in name order, after the files
  DATABASE_URL in the environment wins over [placement_database] connection.`;

/** argparse's codes: 0 done, 1 the command failed, 2 a usage error. */
export const MANAGE_EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Upstream's online migrations: our log never lacks what they fill in, so they always find nothing. */
const UPSTREAM_ONLINE_MIGRATIONS = ['set_root_provider_ids', 'create_incomplete_consumers'];

/** `placement-manage`, upstream's command names over our schema; returns the exit code. */
export async function runManage(argv: readonly string[], env: NodeJS.ProcessEnv, io: CommandIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(USAGE);
    return MANAGE_EXIT.ok;
  }
  const config = commandConfig(argv, env, io);
  if (!config.ok) return MANAGE_EXIT.usage;
  const [group, command, ...rest] = config.rest;
  if (group !== 'db') {
    io.err(group ? `placement-manage: unknown command "${group}"` : 'placement-manage: a command is required');
    io.err(USAGE);
    return MANAGE_EXIT.usage;
  }
  if (command === 'online_data_migrations') return onlineDataMigrations(rest, io);
  if ((command !== 'sync' && command !== 'version') || rest.length > 0) {
    io.err(command ? `placement-manage db: unexpected "${[command, ...rest].join(' ')}"` : 'placement-manage db: sync, version or online_data_migrations');
    io.err(USAGE);
    return MANAGE_EXIT.usage;
  }
  const url = databaseUrlOf(config.env, io);
  if (!url) return MANAGE_EXIT.usage;
  try {
    if (command === 'sync') await sync(url);
    else io.out(await schemaVersion(url));
    return MANAGE_EXIT.ok;
  } catch (error) {
    io.err(`db ${command} failed: ${error instanceof Error ? error.message : String(error)}`);
    return MANAGE_EXIT.failed;
  }
}

/** Exactly what a starting server does to its database (openDatabase), then nothing more. */
async function sync(url: string): Promise<void> {
  const database = await openDatabase(url, 2);
  await database.close();
}

/** The newest migration applied, or None for a database no sync has touched (upstream prints None too). */
export async function schemaVersion(url: string): Promise<string> {
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    const { rows: [found] } = await pool.query('SELECT to_regclass($1) IS NOT NULL AS present', [`${READ_MODELS_SCHEMA}.rm_migrations`]);
    if (!found.present) return 'None';
    const { rows } = await pool.query(`SELECT name FROM ${READ_MODELS_SCHEMA}.rm_migrations ORDER BY timestamp DESC, id DESC LIMIT 1`);
    return rows[0]?.name ?? 'None';
  } finally {
    await pool.end();
  }
}

/** Upstream's table of migrations found and completed; --max-count must be positive (else 127, as upstream). */
function onlineDataMigrations(args: readonly string[], io: CommandIo): number {
  let maxCount: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--max-count') maxCount = args[++i] ?? '';
    else if (args[i].startsWith('--max-count=')) maxCount = args[i].slice('--max-count='.length);
    else {
      io.err(`placement-manage db online_data_migrations: unexpected "${args[i]}"`);
      return MANAGE_EXIT.usage;
    }
  }
  if (maxCount !== undefined && !(/^\d+$/.test(maxCount) && Number(maxCount) >= 1)) {
    io.out('Must supply a positive value for max_count');
    return 127;
  }
  if (maxCount === undefined) io.out('Running batches of 50 until complete');
  io.out(prettyTable(['Migration', 'Total Found', 'Completed'], UPSTREAM_ONLINE_MIGRATIONS.map((name) => [name, '0', '0'])));
  return MANAGE_EXIT.ok;
}
