import type { UpstreamState } from '#domain/index.js';
import { EXPORT_COLUMNS, exportRows } from '#admin/upstream-db/export-rows.js';
import { parseSourceUrl } from '#admin/upstream-db/source-url.js';
import { openTargetTransaction } from '#admin/upstream-db/target-connection.js';
import { createUpstreamShapedDatabase } from '../support/upstream-database.js';
import { runAdmin } from '../support/upstream-placement/admin-command.js';

/** 100,000 providers take minutes to import on the 2-core machine. */
const IMPORT_LIMIT_MS = 30 * 60_000;
/** As `npm run admin` runs the CLI (package.json): a young generation large enough for an import's bulk of short-lived rows. */
const ADMIN_NODE_ARGS = ['--max-semi-space-size=128'];

/**
 * A cloud too large to load through the API in a bench run, put into our database at `targetUrl`
 * as an operator would: written as an upstream Placement database, then `placement-admin import`.
 * Says how many seconds the import itself took.
 */
export async function importUpstreamState(state: UpstreamState, targetUrl: string): Promise<number> {
  const source = await createUpstreamShapedDatabase('postgresql');
  try {
    const tx = await openTargetTransaction(parseSourceUrl(source.url));
    const rows = exportRows(state, { classes: new Map(), traits: new Map() }, (iso) => iso.slice(0, 19).replace('T', ' '));
    for (const [table, columns] of Object.entries(EXPORT_COLUMNS)) await tx.insert(table, columns, rows[table as keyof typeof EXPORT_COLUMNS]);
    await tx.commit();
    await tx.close();
    const started = performance.now();
    const { code, output } = await runAdmin(['import', '--from', source.url], targetUrl, IMPORT_LIMIT_MS, ADMIN_NODE_ARGS);
    if (code !== 0) throw new Error(`placement-admin import exited ${code}: ${output.slice(-2000)}`);
    return (performance.now() - started) / 1000;
  } finally {
    await source.drop();
  }
}
