/**
 * What JSON allows but neither this service nor PostgreSQL can hold. Upstream's schemas never
 * nest deeper than a handful of levels; a body nested 100,000 deep once overflowed the stack
 * while its validation message was printed. PostgreSQL refuses NUL in text and jsonb, and a lone
 * UTF-16 surrogate has no UTF-8 form. Checked once, right after parsing, so no handler, message
 * builder or SQL statement ever sees such a value.
 */
export const MAX_JSON_DEPTH = 64;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `value` cannot be accepted, or undefined. Iterative: its own depth must not matter. */
export function hostileJsonReason(value: unknown): string | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') {
      const reason = hostileString(item);
      if (reason) return reason;
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return `nested deeper than ${MAX_JSON_DEPTH} levels`;
    if (Array.isArray(item)) {
      for (const element of item) stack.push([element, depth + 1]);
      continue;
    }
    for (const [key, element] of Object.entries(item)) {
      const reason = hostileString(key);
      if (reason) return reason;
      stack.push([element, depth + 1]);
    }
  }
  return undefined;
}

/** The same rule for one string: path segments and query values go to the same SQL. */
export function hostileString(text: string): string | undefined {
  if (text.includes('\u0000')) return 'a string holds a NUL character (\\u0000)';
  const lone = LONE_SURROGATE.exec(text);
  if (lone) return `a string holds an unpaired surrogate (\\u${lone[0].charCodeAt(0).toString(16)})`;
  return undefined;
}
