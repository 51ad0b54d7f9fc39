import type { Pool } from 'pg';
import { readLedgerState } from './ledger-state-reader.js';
import { EXPORT_COLUMNS, exportRows } from './export-rows.js';
import { parseSourceUrl } from './source-url.js';
import { openTargetTransaction, TargetTransaction } from './target-connection.js';
import { hasConsumerTypes, LATEST_UPSTREAM_REVISION } from './upstream-schema.js';

/** Refused before anything is written: not an empty upstream database at the revision this build writes. */
export class ExportRefused extends Error {}

/** Tables that must hold no row: an export never merges into a serving upstream. */
const MUST_BE_EMPTY = ['resource_providers', 'inventories', 'allocations', 'consumers', 'projects', 'users', 'placement_aggregates'];

/** Without sub-seconds: MySQL's DATETIME would round them, and Last-Modified is in seconds anyway. */
const naiveUtc = (iso: string) => iso.slice(0, 19).replace('T', ' ');

/**
 * Writes what this service serves into an empty upstream-schema database (made by upstream's
 * `placement-manage db sync`), in one transaction: upstream then serves the same state,
 * generations included.
 */
export async function exportToUpstream(pool: Pool, to: string, say: (line: string) => void): Promise<void> {
  const url = parseSourceUrl(to);
  const started = performance.now();
  const state = await readLedgerState(pool);
  say(`read ${state.providers.length} resource providers and ${state.consumers.length} consumers from this service`);
  const tx = await openTargetTransaction(url);
  try {
    await refuseUnlessEmpty(tx);
    const existing = {
      classes: new Map((await tx.query<{ id: number; name: string }>('SELECT id, name FROM resource_classes')).map((r) => [r.name, Number(r.id)])),
      traits: new Map((await tx.query<{ id: number; name: string }>('SELECT id, name FROM traits')).map((r) => [r.name, Number(r.id)])),
    };
    const rows = exportRows(state, existing, naiveUtc);
    let total = 0;
    for (const [table, columns] of Object.entries(EXPORT_COLUMNS)) {
      const tableRows = rows[table as keyof typeof EXPORT_COLUMNS];
      await tx.insert(table, columns, tableRows);
      total += tableRows.length;
      say(`wrote ${table}: ${tableRows.length} rows`);
    }
    if (tx.dialect === 'postgresql') await advanceSequences(tx);
    await tx.commit();
    say(`exported ${total} rows to ${url.redacted} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await tx.close();
  }
}

async function refuseUnlessEmpty(tx: TargetTransaction): Promise<void> {
  let revision: string | undefined;
  try {
    revision = (await tx.query<{ version_num: string }>('SELECT version_num FROM alembic_version'))[0]?.version_num;
  } catch {
    revision = undefined;
  }
  // 422ece571366 (Placement 8.0) and later have the tables and columns written here.
  if (revision === undefined || !hasConsumerTypes(revision)) {
    throw new ExportRefused(`the target is not an upstream Placement database at schema 422ece571366..${LATEST_UPSTREAM_REVISION} `
      + `(found ${revision ?? 'no alembic_version'}): create it with upstream's placement-manage db sync first`);
  }
  for (const table of MUST_BE_EMPTY) {
    const [{ n }] = await tx.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
    if (Number(n) > 0) throw new ExportRefused(`the target is not empty: ${table} holds ${n} rows; nothing was written`);
  }
  for (const table of ['resource_classes', 'traits']) {
    const [{ n }] = await tx.query<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE name LIKE 'CUSTOM!_%' ESCAPE '!'`);
    if (Number(n) > 0) throw new ExportRefused(`the target is not empty: ${table} holds ${n} custom names; nothing was written`);
  }
}

/** Rows were written with their ids: PostgreSQL's serial sequences must move past them. */
async function advanceSequences(tx: TargetTransaction): Promise<void> {
  for (const [table, columns] of Object.entries(EXPORT_COLUMNS)) {
    if (columns[0] !== 'id') continue;
    await tx.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT max(id) FROM ${table}), 1))
                    WHERE pg_get_serial_sequence('${table}', 'id') IS NOT NULL`);
  }
}
