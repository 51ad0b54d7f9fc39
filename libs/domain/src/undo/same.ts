/** JSON with object keys sorted: two values are the same state whatever order their keys were written in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const same = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

/** Traits and aggregates are sets: their order carries no meaning. */
export const sameSet = (a: readonly string[], b: readonly string[]): boolean => same([...a].sort(), [...b].sort());
