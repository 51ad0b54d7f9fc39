import type { TableRows } from './memory/table-rows.js';

export type Row = Readonly<Record<string, unknown>>;

interface ColumnDifference {
  readonly column: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

export interface RowDifference {
  readonly key: Row;
  readonly columns: readonly ColumnDifference[];
}

/**
 * A table's drift: rows the log implies but the table lacks, rows it should not hold, rows that
 * differ. The counts are complete; the rows kept are the first SAMPLES of each kind, so a table
 * that lost everything still fits in memory.
 */
export interface TableDiff {
  readonly table: string;
  readonly expectedRows: number;
  readonly actualRows: number;
  readonly missingCount: number;
  readonly extraCount: number;
  readonly differentCount: number;
  readonly missing: readonly Row[];
  readonly extra: readonly Row[];
  readonly different: readonly RowDifference[];
}

export const SAMPLES = 100;

export const hasDrift = (diff: TableDiff) => diff.missingCount + diff.extraCount + diff.differentCount > 0;

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
  const comparison = new TableComparison(key, expected, actual.columns);
  comparison.compare(actual.rows);
  return comparison.finish();
}

/**
 * The expected rows indexed by key; the actual rows fed in chunks as a cursor reads them, so
 * only one side of a big table is ever in memory.
 */
export class TableComparison {
  private readonly byKey = new Map<string, number | number[]>();
  private readonly matched: Uint8Array;
  private readonly actualIndex: number[];
  private readonly keyIndex: number[];
  private actualRows = 0;
  private extraCount = 0;
  private differentCount = 0;
  private readonly extra: Row[] = [];
  private readonly different: RowDifference[] = [];

  constructor(key: readonly string[], private readonly expected: TableRows, actualColumns: readonly string[]) {
    const columns = expected.columns;
    this.actualIndex = columns.map((column) => actualColumns.indexOf(column));
    const missingColumn = columns.find((_, i) => this.actualIndex[i] < 0);
    if (missingColumn) throw new Error(`${expected.table} has no column ${missingColumn}`);
    this.keyIndex = key.map((column) => columns.indexOf(column));
    this.matched = new Uint8Array(expected.rows.length);
    expected.rows.forEach((row, index) => {
      const k = this.keyOf(row);
      const seen = this.byKey.get(k);
      if (seen === undefined) this.byKey.set(k, index);
      else this.byKey.set(k, [...(typeof seen === 'number' ? [seen] : seen), index]);
    });
  }

  compare(rows: readonly (readonly unknown[])[]): void {
    const columns = this.expected.columns;
    for (const raw of rows) {
      this.actualRows++;
      const row = this.actualIndex.map((i) => raw[i]);
      const candidates = this.byKey.get(this.keyOf(row));
      const index = typeof candidates === 'number'
        ? (this.matched[candidates] ? undefined : candidates)
        : candidates?.find((i) => !this.matched[i]);
      if (index === undefined) {
        if (this.extraCount++ < SAMPLES) this.extra.push(this.asRow(row));
        continue;
      }
      this.matched[index] = 1;
      const wanted = this.expected.rows[index];
      const changed = columns.flatMap((column, i) =>
        canonical(wanted[i]) === canonical(row[i]) ? [] : [{ column, expected: wanted[i], actual: row[i] }]);
      if (changed.length > 0 && this.differentCount++ < SAMPLES) {
        this.different.push({ key: Object.fromEntries(this.keyIndex.map((i) => [columns[i], wanted[i]])), columns: changed });
      }
    }
  }

  finish(): TableDiff {
    const missing: Row[] = [];
    let missingCount = 0;
    this.expected.rows.forEach((row, index) => {
      if (!this.matched[index] && missingCount++ < SAMPLES) missing.push(this.asRow(row));
    });
    return {
      table: this.expected.table, expectedRows: this.expected.rows.length, actualRows: this.actualRows,
      missingCount, extraCount: this.extraCount, differentCount: this.differentCount,
      missing, extra: this.extra, different: this.different,
    };
  }

  private keyOf(values: readonly unknown[]): string {
    return JSON.stringify(this.keyIndex.map((i) => canonical(values[i])));
  }

  private asRow(values: readonly unknown[]): Row {
    return Object.fromEntries(this.expected.columns.map((column, i) => [column, values[i]]));
  }
}
