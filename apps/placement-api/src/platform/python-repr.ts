/** Python's repr() of JSON data: upstream's validation messages quote values this way. */
/** `sortKeys` prints dicts as pprint does (jsonschema shows the failing schema that way). */
export function pyRepr(value: unknown, sortKeys = false): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pyFloat(value);
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) return `[${value.map((v) => pyRepr(v, sortKeys)).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (sortKeys) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${pyString(k)}: ${pyRepr(v, sortKeys)}`).join(', ')}}`;
  }
  return String(value);
}

function pyFloat(value: number): string {
  const text = String(value);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

function pyString(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  const body = value
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')
    .replace(quote === "'" ? /'/g : /"/g, `\\${quote}`);
  return `${quote}${body}${quote}`;
}
