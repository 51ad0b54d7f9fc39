/**
 * Semantic JSON difference as readable paths (`$.allocations.<rp>.resources.VCPU: 2 != 4`):
 * object keys in any order, arrays in the order given (callers sort the lists whose order the
 * API leaves undefined before they get here).
 */
export function jsonDifferences(left: unknown, right: unknown, path = '$'): string[] {
  if (Object.is(left, right)) return [];
  if (Array.isArray(left) && Array.isArray(right)) {
    const out: string[] = [];
    if (left.length !== right.length) out.push(`${path}.length: ${left.length} != ${right.length}`);
    for (let i = 0; i < Math.min(left.length, right.length); i++) out.push(...jsonDifferences(left[i], right[i], `${path}[${i}]`));
    return out;
  }
  if (isObject(left) && isObject(right)) {
    const out: string[] = [];
    const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
    for (const key of keys) {
      const at = `${path}.${key}`;
      if (!(key in left)) out.push(`${at}: (absent) != ${show(right[key])}`);
      else if (!(key in right)) out.push(`${at}: ${show(left[key])} != (absent)`);
      else out.push(...jsonDifferences(left[key], right[key], at));
    }
    return out;
  }
  return [`${path}: ${show(left)} != ${show(right)}`];
}

/** Stable text of a JSON value (keys sorted), for sorting lists of objects and for messages. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

function show(value: unknown): string {
  const text = canonical(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
