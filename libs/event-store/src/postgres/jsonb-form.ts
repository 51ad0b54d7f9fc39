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
  const keys = Object.keys(value).map((key) => ({ key, bytes: Buffer.from(key, 'utf8') }));
  keys.sort((a, b) => a.bytes.length - b.bytes.length || Buffer.compare(a.bytes, b.bytes));
  const result: Record<string, unknown> = {};
  for (const { key } of keys) result[key] = ordered((value as Record<string, unknown>)[key]);
  return result;
}
