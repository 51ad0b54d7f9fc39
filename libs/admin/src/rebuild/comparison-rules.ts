import type { TableRows } from './memory/table-rows.js';

/**
 * What of a table the log determines. A custom resource class's id comes from a sequence that
 * also spends values on rolled-back writes, so only the classes' order (which GET
 * /resource_classes shows) is a fact of the log; custom ids are compared as ranks.
 */
export function comparable(table: TableRows): TableRows {
  if (table.table !== 'rm_resource_classes') return table;
  const id = table.columns.indexOf('id');
  const custom = table.columns.indexOf('custom');
  if (id < 0 || custom < 0) return table;
  const ranks = new Map(table.rows.filter((row) => row[custom] === true).map((row) => Number(row[id]))
    .sort((a, b) => a - b).map((value, rank) => [value, rank]));
  return {
    ...table,
    rows: table.rows.map((row) => row[custom] === true ? row.map((value, i) => (i === id ? `custom #${ranks.get(Number(value))! + 1}` : value)) : row),
  };
}
