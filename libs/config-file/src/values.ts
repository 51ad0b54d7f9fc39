import type { OptionType } from './options.js';

/** oslo.config's BoolOpt words, any case. */
const TRUE_WORDS = ['true', '1', 'on', 'yes'];
const FALSE_WORDS = ['false', '0', 'off', 'no'];

export type Checked = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly reason: string };

/**
 * A file's value checked against its option's type, as oslo.config's types check it, and
 * written as our settings expect it (`true`/`false`, a plain integer, a comma-separated list).
 */
export function checkValue(type: OptionType, raw: string): Checked {
  switch (type.kind) {
    case 'bool': {
      const word = raw.trim().toLowerCase();
      if (TRUE_WORDS.includes(word)) return { ok: true, value: 'true' };
      if (FALSE_WORDS.includes(word)) return { ok: true, value: 'false' };
      return { ok: false, reason: `"${raw}" is not a boolean (true/false, yes/no, on/off, 1/0)` };
    }
    case 'int': {
      if (!/^\s*[+-]?\d+\s*$/.test(raw)) return { ok: false, reason: `"${raw}" is not an integer` };
      const value = Number(raw);
      if (type.min !== undefined && value < type.min) return { ok: false, reason: `${value} is below the minimum ${type.min}` };
      return { ok: true, value: String(value) };
    }
    case 'choice':
      return type.choices.includes(raw)
        ? { ok: true, value: raw }
        : { ok: false, reason: `"${raw}" is not one of ${type.choices.join(', ')}` };
    case 'list':
      return { ok: true, value: splitList(raw).join(',') };
    case 'str':
      return { ok: true, value: raw };
  }
}

/** oslo's List type: comma-separated, optionally in brackets, items trimmed. */
export function splitList(raw: string): string[] {
  const inner = raw.trim().replace(/^\[(.*)\]$/s, '$1');
  return inner.split(',').map((item) => item.trim()).filter(Boolean);
}

/**
 * oslo.config's `$name` / `${name}` / `${section.name}` substitution ($$ is a literal $): a value
 * may refer to another option. `lookup` answers for DEFAULT's options and `section.option`;
 * a name it does not know is an error, as in oslo; a `$` not followed by a name is kept.
 */
export function substitute(raw: string, lookup: (name: string) => string | undefined): Checked {
  let missing: string | undefined;
  const value = raw.replace(/\$(?:\$|\{([A-Za-z_][\w.]*)\}|([A-Za-z_]\w*))/g, (whole, braced?: string, bare?: string) => {
    if (whole === '$$') return '$';
    const name = braced ?? bare!;
    const found = lookup(name);
    if (found === undefined) missing ??= name;
    return found ?? whole;
  });
  return missing ? { ok: false, reason: `refers to $${missing}, which is not set` } : { ok: true, value };
}
