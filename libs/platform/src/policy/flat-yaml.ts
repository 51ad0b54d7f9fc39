/**
 * The YAML that policy files are written in: one top-level mapping of rule name to check
 * string (plain, 'single' or "double" quoted, a plain one may continue on indented lines),
 * with comments. Anything richer is refused with its line number rather than misread; the
 * list-of-lists syntax is accepted in JSON files.
 */
export class YamlSubsetError extends Error {}

export type FlatValue = string | null | boolean | number;

const DOUBLE_ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};
const HEX_ESCAPE_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

/** A quoted scalar starting at text[0]: its value and what follows its closing quote. */
function readQuoted(text: string, line: number): { value: string; rest: string } {
  const quote = text[0];
  let value = '';
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (quote === "'" && c === "'") {
      if (text[i + 1] === "'") { value += "'"; i++; continue; }
      return { value, rest: text.slice(i + 1) };
    }
    if (quote === '"' && c === '"') return { value, rest: text.slice(i + 1) };
    if (quote === '"' && c === '\\') {
      const e = text[++i];
      if (e in HEX_ESCAPE_LENGTH) {
        const hex = text.slice(i + 1, i + 1 + HEX_ESCAPE_LENGTH[e]);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== HEX_ESCAPE_LENGTH[e]) throw new YamlSubsetError(`line ${line}: bad \\${e} escape`);
        value += String.fromCodePoint(parseInt(hex, 16));
        i += hex.length;
      } else if (e !== undefined && e in DOUBLE_ESCAPES) {
        value += DOUBLE_ESCAPES[e];
      } else {
        throw new YamlSubsetError(`line ${line}: unknown escape \\${e ?? ''}`);
      }
      continue;
    }
    value += c;
  }
  throw new YamlSubsetError(`line ${line}: unterminated quoted string (quoted values must fit on one line)`);
}

const afterScalar = (rest: string, line: number) => {
  if (!/^\s*(#.*)?$/.test(rest)) throw new YamlSubsetError(`line ${line}: unexpected text after a quoted value: "${rest.trim()}"`);
};

/** YAML 1.1 (PyYAML's safe_load) resolution of a plain scalar. */
function resolvePlain(text: string, line: number): FlatValue {
  if (/^[[{&*!|>%@`]/.test(text) || /^-(\s|$)/.test(text) || /^\?\s/.test(text)) {
    throw new YamlSubsetError(`line ${line}: "${text}" starts with a YAML indicator; quote the check string`);
  }
  if (/:(\s|$)/.test(text)) throw new YamlSubsetError(`line ${line}: nested mappings are not allowed ("${text}")`);
  if (text === '' || text === '~' || /^(null|Null|NULL)$/.test(text)) return null;
  if (/^(yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/.test(text)) return /^(y|t|o[nN])/i.test(text);
  if (/^[-+]?(0|[1-9][0-9_]*)(\.[0-9_]*)?([eE][-+][0-9]+)?$/.test(text)) return Number(text.replace(/_/g, ''));
  return text;
}

function readKey(line: string, lineNo: number): { key: string; rest: string } {
  if (line[0] === '"' || line[0] === "'") {
    const { value, rest } = readQuoted(line, lineNo);
    if (!/^\s*:(\s|$)/.test(rest)) throw new YamlSubsetError(`line ${lineNo}: expected ":" after the rule name`);
    return { key: value, rest: rest.replace(/^\s*:/, '') };
  }
  const colon = /:(\s|$)/.exec(line);
  if (!colon) throw new YamlSubsetError(`line ${lineNo}: expected "rule name: check string"`);
  return { key: line.slice(0, colon.index).trimEnd(), rest: line.slice(colon.index + 1) };
}

/**
 * A quoted value that goes on over indented lines, joined as YAML folds a flow scalar: a
 * line break becomes one space, and an escaped one (a trailing backslash) joins directly.
 */
function joinQuotedLines(first: string, lines: readonly string[], from: number): { text: string; next: number } {
  const quote = first[0];
  const closes = (text: string) => {
    try { readQuoted(text, 0); return true; } catch { return false; }
  };
  let text = first;
  let next = from;
  while (!closes(text) && next < lines.length && /^\s/.test(lines[next])) {
    const more = lines[next++].trim();
    text = quote === '"' && /(^|[^\\])(\\\\)*\\$/.test(text) ? text.slice(0, -1) + more : `${text.trimEnd()} ${more}`;
  }
  return { text, next };
}

/** Parses a flat YAML mapping; an empty document (or `{}`) is an empty mapping. */
export function parseFlatYaml(text: string): Record<string, FlatValue> {
  const result: Record<string, FlatValue> = {};
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let continuable: string | undefined;
  let started = false;
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index];
    const lineNo = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (!started && (trimmed === '---' || trimmed === '{}')) { started = true; continue; }
    started = true;
    if (/^\s/.test(raw)) {
      if (continuable === undefined) throw new YamlSubsetError(`line ${lineNo}: unexpected indentation (only "rule name: check string" entries are supported)`);
      const more = trimmed.replace(/\s+#.*$/, '');
      if (/:(\s|$)/.test(more)) throw new YamlSubsetError(`line ${lineNo}: nested mappings are not allowed`);
      result[continuable] = `${result[continuable]} ${more}`;
      continue;
    }
    const { key, rest } = readKey(raw, lineNo);
    const value = rest.trim();
    continuable = undefined;
    if (value.startsWith('"') || value.startsWith("'")) {
      const joined = joinQuotedLines(value, lines, index + 1);
      const quoted = readQuoted(joined.text, lineNo);
      afterScalar(quoted.rest, lineNo);
      result[key] = quoted.value;
      index = joined.next - 1;
    } else {
      const plain = value.startsWith('#') ? '' : value.replace(/\s+#.*$/, '');
      result[key] = resolvePlain(plain, lineNo);
      if (typeof result[key] === 'string') continuable = key;
    }
  }
  return result;
}
