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

/**
 * `{a,"b c",NULL}`: every element quoted, as pg writes them, nested arrays inside. Built by
 * concatenation, and escaped only when one native scan finds a quote or backslash: a claim's
 * arrays (uuids, numbers, JSON without either) are written on every append.
 */
function arrayText(values: readonly unknown[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) text += ',';
    const value = values[i];
    if (value === null || value === undefined) text += 'NULL';
    else if (Array.isArray(value)) text += arrayText(value);
    else if (Buffer.isBuffer(value)) text += `\\\\x${value.toString('hex')}`;
    else {
      const element = parameterText(value) as string;
      text += ARRAY_ESCAPED.test(element) ? `"${element.replace(ARRAY_ESCAPES, '\\$&')}"` : `"${element}"`;
    }
  }
  return `${text}}`;
}

/** What an array element's quotes must escape with a backslash. */
const ARRAY_ESCAPED = /["\\]/;
const ARRAY_ESCAPES = /["\\]/g;

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
