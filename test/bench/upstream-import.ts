import type { UpstreamState } from '#domain/index.js';
import { EXPORT_COLUMNS, exportRows } from '#admin/upstream-db/export-rows.js';
import { parseSourceUrl } from '#admin/upstream-db/source-url.js';
import { openTargetTransaction } from '#admin/upstream-db/target-connection.js';
import { createUpstreamShapedDatabase, Dialect } from '../support/upstream-database.js';
import { AdminRun, runAdmin } from '../support/upstream-placement/admin-command.js';

/** 100,000 providers take minutes to import on the 2-core machine. */
const IMPORT_LIMIT_MS = 30 * 60_000;
/** As `npm run admin` runs the CLI (package.json): a young generation large enough for an import's bulk of short-lived rows. */
const ADMIN_NODE_ARGS = ['--max-semi-space-size=128'];

export interface UpstreamImport {
  /** Rows of the upstream database, allocations among them. */
  readonly rows: number;
  readonly allocations: number;
  /** How long `placement-admin import` itself took, and what it printed (its progress). */
  readonly seconds: number;
  readonly output: string;
}

export interface ImportOptions {
  /** The upstream database's engine (default PostgreSQL). */
  readonly dialect?: Dialect;
  /** Run once the import succeeded, while the upstream database is still there (`import --verify`). */
  readonly afterImport?: (sourceUrl: string) => Promise<void>;
}

/** `placement-admin <args>` on our database at `databaseUrl` as the benches run it, timed. */
export async function timedAdmin(args: readonly string[], databaseUrl: string): Promise<AdminRun & { seconds: number }> {
  const started = performance.now();
  const run = await runAdmin(args, databaseUrl, IMPORT_LIMIT_MS, ADMIN_NODE_ARGS);
  return { ...run, seconds: (performance.now() - started) / 1000 };
}

/**
 * A cloud too large to load through the API in a bench run, put into our database at `targetUrl`
 * as an operator would: written as an upstream Placement database, then `placement-admin import`.
 */
export async function importUpstreamState(state: UpstreamState, targetUrl: string, options: ImportOptions = {}): Promise<UpstreamImport> {
  const source = await createUpstreamShapedDatabase(options.dialect ?? 'postgresql');
  try {
    const tx = await openTargetTransaction(parseSourceUrl(source.url));
    const rows = exportRows(state, { classes: new Map(), traits: new Map() }, (iso) => iso.slice(0, 19).replace('T', ' '));
    let total = 0;
    for (const [table, columns] of Object.entries(EXPORT_COLUMNS)) {
      const tableRows = rows[table as keyof typeof EXPORT_COLUMNS];
      await tx.insert(table, columns, tableRows);
      total += tableRows.length;
    }
    await tx.commit();
    await tx.close();
    const { code, output, seconds } = await timedAdmin(['import', '--from', source.url], targetUrl);
    if (code !== 0) throw new Error(`placement-admin import exited ${code}: ${output.slice(-2000)}`);
    await options.afterImport?.(source.url);
    return { rows: total, allocations: rows.allocations.length, seconds, output };
  } finally {
    await source.drop();
  }
}
