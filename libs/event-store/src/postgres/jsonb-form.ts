/**
 * A value as PostgreSQL's jsonb gives it back: JSON's values, every object's keys in jsonb's order
 * (shorter keys first, then bytewise). A state evolved from events in this form is the one a read
 * of the log would evolve, down to the order of its keys (which messages listing them follow).
 * One copy, without the JSON text between: it gives what JSON.parse(JSON.stringify(value)) would,
 * reordered (undefined, functions and symbols dropped from objects and null in arrays, numbers
 * that are not finite null, toJSON and boxed primitives followed, a BigInt refused).
 */
export function jsonbForm(value: unknown): unknown {
  return copied(value) ?? null;
}

/** The JSON form of `value`, ordered; undefined where JSON.stringify leaves the value out. */
function copied(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON writes -0 as 0.
      return Number.isFinite(value) ? value + 0 : null;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return copied((value as { toJSON: () => unknown }).toJSON());
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return copied(value.valueOf());
  if (Array.isArray(value)) return value.map((item) => copied(item) ?? null);
  // Keys are nearly always ASCII, whose bytes compare as the string's units do and number as many.
  const keys = Object.keys(value);
  if (keys.every(isAscii)) keys.sort(byLengthThenUnits);
  else sortByUtf8(keys);
  const result: Record<string, unknown> = {};
  for (const key of keys) {
    const item = copied((value as Record<string, unknown>)[key]);
    if (item !== undefined) result[key] = item;
  }
  return result;
}

const ASCII = /^[\x00-\x7f]*$/;
const isAscii = (key: string) => ASCII.test(key);
const byLengthThenUnits = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** Each key encoded once, not once per comparison. */
function sortByUtf8(keys: string[]): void {
  const encoded = keys.map((key) => ({ key, bytes: Buffer.from(key, 'utf8') }));
  encoded.sort((a, b) => a.bytes.length - b.bytes.length || Buffer.compare(a.bytes, b.bytes));
  encoded.forEach(({ key }, i) => (keys[i] = key));
}
