/**
 * A value as PostgreSQL's jsonb gives it back: JSON's values, every object's keys in jsonb's order
 * (shorter keys first, then bytewise). A state evolved from events in this form is the one a read
 * of the log would evolve, down to the order of its keys (which messages listing them follow).
 */
export function jsonbForm(value: unknown): unknown {
  return ordered(JSON.parse(JSON.stringify(value ?? null)));
}

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  // Keys are nearly always ASCII, whose bytes compare as the string's units do and number as many.
  keys.sort(keys.every(isAscii) ? byLengthThenUnits : byUtf8);
  const result: Record<string, unknown> = {};
  for (const key of keys) result[key] = ordered((value as Record<string, unknown>)[key]);
  return result;
}

const ASCII = /^[\x00-\x7f]*$/;
const isAscii = (key: string) => ASCII.test(key);
const byLengthThenUnits = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

function byUtf8(a: string, b: string): number {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length - right.length || Buffer.compare(left, right);
}
