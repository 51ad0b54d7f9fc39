/**
 * The bits of Python semantics oslo.policy's checks lean on: `str(value)` for comparisons,
 * `match % target` for substitutions, and `ast.literal_eval(kind)` for literal check kinds.
 */

export type PolicyValue = string | number | boolean | null | readonly PolicyValue[] | { readonly [key: string]: PolicyValue };

/** Python's str() of a JSON-like value (str(None) == 'None' matters: see evaluate.ts). */
export function pyStr(value: PolicyValue | undefined): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pyFloat(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
}

function pyRepr(value: PolicyValue): string {
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : pyStr(value);
}

function pyFloat(value: number): string {
  const text = String(value);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/** `match % target`: undefined when a named key is missing (Python raises KeyError there). */
export function substitute(match: string, target: Readonly<Record<string, PolicyValue>>): string | undefined {
  let missing = false;
  const result = match.replace(/%(\(([^)]*)\)s|%)/g, (_all, spec: string, name: string | undefined) => {
    if (spec === '%') return '%';
    if (!Object.prototype.hasOwnProperty.call(target, name!)) {
      missing = true;
      return '';
    }
    return pyStr(target[name!]);
  });
  return missing ? undefined : result;
}

/**
 * `str(ast.literal_eval(kind))` when the kind is a Python literal ('Member', "x", True, 42),
 * undefined when it is a name or a dotted path to look up in the credentials instead.
 */
export function literalKind(kind: string): string | undefined {
  const quoted = /^(['"])(.*)\1$/s.exec(kind);
  if (quoted) return quoted[2];
  if (kind === 'True' || kind === 'False' || kind === 'None') return kind;
  if (/^[+-]?(0|[1-9][0-9]*)$/.test(kind)) return BigInt(kind).toString();
  if (/^[+-]?([0-9]+\.[0-9]*|\.[0-9]+)$/.test(kind)) return pyFloat(Number(kind));
  return undefined;
}
