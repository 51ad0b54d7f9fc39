import type { TableRows } from './memory/table-rows.js';

export type Row = Readonly<Record<string, unknown>>;

export interface ColumnDifference {
  readonly column: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

export interface RowDifference {
  readonly key: Row;
  readonly columns: readonly ColumnDifference[];
}

/** A table's drift: rows the log implies but the table lacks, rows it should not hold, rows that differ. */
export interface TableDiff {
  readonly table: string;
  readonly expectedRows: number;
  readonly actualRows: number;
  readonly missing: readonly Row[];
  readonly extra: readonly Row[];
  readonly different: readonly RowDifference[];
}

export const hasDrift = (diff: TableDiff) => diff.missing.length + diff.extra.length + diff.different.length > 0;

/**
 * One spelling per value, whichever side it came from: a Date and the same instant read back,
 * a number and the int8 text pg returns, a jsonb object whatever its key order.
 */
export function canonical(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(sortKeys(value));
  return String(value);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
}

/** Compares two versions of a table row by row on `key`, over the expected side's columns. */
export function diffTable(key: readonly string[], expected: TableRows, actual: TableRows): TableDiff {
  const columns = expected.columns;
  const actualIndex = columns.map((column) => actual.columns.indexOf(column));
  const missingColumn = columns.find((_, i) => actualIndex[i] < 0);
  if (missingColumn) throw new Error(`${actual.table} has no column ${missingColumn}`);
  const keyIndex = key.map((column) => columns.indexOf(column));
  const asRow = (values: readonly unknown[]): Row => Object.fromEntries(columns.map((column, i) => [column, values[i]]));
  const aligned = (row: readonly unknown[]) => actualIndex.map((i) => row[i]);
  const keyOf = (values: readonly unknown[]) => JSON.stringify(keyIndex.map((i) => canonical(values[i])));

  const pending = new Map<string, (readonly unknown[])[]>();
  for (const row of actual.rows) {
    const values = aligned(row);
    const k = keyOf(values);
    const list = pending.get(k);
    if (list) list.push(values);
    else pending.set(k, [values]);
  }
  const missing: Row[] = [], different: RowDifference[] = [];
  for (const row of expected.rows) {
    const k = keyOf(row);
    const candidates = pending.get(k);
    const found = candidates?.shift();
    if (candidates && candidates.length === 0) pending.delete(k);
    if (!found) {
      missing.push(asRow(row));
      continue;
    }
    const changed = columns.flatMap((column, i) =>
      canonical(row[i]) === canonical(found[i]) ? [] : [{ column, expected: row[i], actual: found[i] }]);
    if (changed.length > 0) different.push({ key: Object.fromEntries(keyIndex.map((i) => [columns[i], row[i]])), columns: changed });
  }
  const extra = [...pending.values()].flat().map(asRow);
  return { table: expected.table, expectedRows: expected.rows.length, actualRows: actual.rows.length, missing, extra, different };
}
