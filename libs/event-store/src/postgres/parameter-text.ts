/**
 * A parameter's text, as pg sends it in the text protocol (pg's own utils, which it does not
 * export): a value written into a message as a literal must be the text the server would have
 * been sent as a parameter. Covers what the store and the projections pass: strings, numbers,
 * bigints, booleans, dates, buffers, JSON objects, and arrays of them (PostgreSQL's array syntax).
 */
export function parameterText(value: unknown): string | Buffer | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Date) return dateText(value);
  if (Array.isArray(value)) return arrayText(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `{a,"b c",NULL}`: every element quoted, as pg writes them, nested arrays inside. */
function arrayText(values: readonly unknown[]): string {
  const parts = values.map((value) => {
    if (value === null || value === undefined) return 'NULL';
    if (Array.isArray(value)) return arrayText(value);
    if (Buffer.isBuffer(value)) return `\\\\x${value.toString('hex')}`;
    const text = parameterText(value) as string;
    return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${parts.join(',')}}`;
}

/** pg's local-time form with the offset, e.g. 2026-11-28T02:00:00.000+00:00 (BC years as such). */
function dateText(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');
  let year = date.getFullYear();
  const bc = year < 1;
  if (bc) year = Math.abs(year) + 1;
  const sign = offset < 0 ? '-' : '+';
  return `${pad(year, 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
    + `.${pad(date.getMilliseconds(), 3)}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}${bc ? ' BC' : ''}`;
}
