/**
 * Semantic JSON difference as readable paths (`$.allocations.<rp>.resources.VCPU: 2 != 4`):
 * object keys in any order, arrays in the order given (callers sort the lists whose order the
 * API leaves undefined before they get here).
 */
export function jsonDifferences(left: unknown, right: unknown, path = '$'): string[] {
  if (Object.is(left, right)) return [];
  if (Array.isArray(left) && Array.isArray(right)) {
    // Sets of names (traits, aggregates): what one side has and the other lacks, not a cascade of shifted indexes.
    if ([...left, ...right].every((item) => typeof item !== 'object' || item === null)) return setDifferences(left, right, path);
    const key = ['uuid', 'name'].find((k) => [...left, ...right].every((item) => isObject(item) && typeof item[k] === 'string'));
    if (key) return keyedDifferences(left, right, key, path);
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
  if (typeof left === 'string' && typeof right === 'string') return [`${path}: ${showStrings(left, right)}`];
  return [`${path}: ${show(left)} != ${show(right)}`];
}

function setDifferences(left: unknown[], right: unknown[], path: string): string[] {
  const [l, r] = [left.map((x) => canonical(x)), right.map((x) => canonical(x))];
  const onlyLeft = l.filter((x) => !r.includes(x));
  const onlyRight = r.filter((x) => !l.includes(x));
  if (onlyLeft.length || onlyRight.length) return [`${path}: only left [${onlyLeft.join(', ')}], only right [${onlyRight.join(', ')}]`];
  return l.join() === r.join() ? [] : [`${path}: same items, order ${show(left)} != ${show(right)}`];
}

/** Lists of providers or classes, matched by uuid or name (sorted by the caller). */
function keyedDifferences(left: any[], right: any[], key: string, path: string): string[] {
  const out: string[] = [];
  const index = (list: any[]) => new Map(list.map((item) => [item[key] as string, item]));
  const [l, r] = [index(left), index(right)];
  for (const k of [...new Set([...l.keys(), ...r.keys()])].sort()) {
    const at = `${path}[${key}=${k}]`;
    if (!l.has(k)) out.push(`${at}: (absent) != ${show(r.get(k))}`);
    else if (!r.has(k)) out.push(`${at}: ${show(l.get(k))} != (absent)`);
    else out.push(...jsonDifferences(l.get(k), r.get(k), at));
  }
  if (out.length === 0 && left.map((x) => x[key]).join() !== right.map((x) => x[key]).join()) out.push(`${path}: same items, another order`);
  return out;
}

/** Two long texts (error details): shown from a little before where they part. */
function showStrings(left: string, right: string): string {
  if (left.length + right.length < 200) return `${JSON.stringify(left)} != ${JSON.stringify(right)}`;
  let i = 0;
  while (i < left.length && left[i] === right[i]) i++;
  const from = Math.max(0, i - 40);
  const cut = (s: string) => JSON.stringify(`${from > 0 ? '…' : ''}${s.slice(from, from + 160)}${s.length > from + 160 ? '…' : ''}`);
  return `${cut(left)} != ${cut(right)}`;
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
