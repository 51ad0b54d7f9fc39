/** One `key = value` of a file, with where it was written so a bad value can be pointed at. */
export interface IniValue {
  readonly value: string;
  readonly file: string;
  readonly line: number;
}

/** section -> option -> every value given for it, in file order (the last one counts for single-valued options). */
export type IniSections = Map<string, Map<string, IniValue[]>>;

/** A file oslo.config would refuse to parse; names the file and line. */
export class IniSyntaxError extends Error {}

/**
 * oslo.config's group names are case-insensitive except DEFAULT, which must be written so:
 * `[Placement_Database]` is `[placement_database]`, while `[default]` is a section of its own.
 */
function normalizeSection(name: string): string {
  return name === 'DEFAULT' ? name : name.toLowerCase();
}

/** Option names may be written with dashes; oslo.config stores them with underscores. */
const normalizeOption = (name: string) => name.replace(/-/g, '_');

/** A value wholly inside matching quotes loses them, as oslo's parser does; inner quotes stay. */
function unquote(value: string): string {
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value[value.length - 1] === value[0]) return value.slice(1, -1);
  return value;
}

/**
 * The INI dialect of oslo.config's parser, text to sections: `[section]` headers, `key = value`
 * or `key: value`, whole-line `#` and `;` comments (a `#` later in a line belongs to the value:
 * passwords contain them), and continuation lines (indented) joined to the value with newlines.
 * Pure: `file` is only used to name where a value or an error comes from.
 */
export function parseIni(text: string, file: string): IniSections {
  const sections: IniSections = new Map();
  let current: Map<string, IniValue[]> | undefined;
  let last: { values: IniValue[]; index: number } | undefined;
  const fail = (line: number, why: string): never => { throw new IniSyntaxError(`${file}:${line}: ${why}`); };
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const stripped = raw.trim();
    // A blank line or a comment ends a value that continues over several lines.
    if (stripped === '') { last = undefined; return; }
    if (/^[ \t]/.test(raw) && last) {
      const previous = last.values[last.index];
      last.values[last.index] = { ...previous, value: `${previous.value}\n${stripped}` };
      return;
    }
    last = undefined;
    if (stripped.startsWith('#') || stripped.startsWith(';')) return;
    // oslo refuses an indented line with no value above it to continue.
    if (/^[ \t]/.test(raw)) fail(line, `unexpected continuation line "${stripped}"`);
    if (stripped.startsWith('[')) {
      if (!stripped.endsWith(']')) fail(line, `invalid section header "${stripped}" (must end with ])`);
      const name = stripped.slice(1, -1).trim();
      if (!name) fail(line, 'empty section name');
      const key = normalizeSection(name);
      current = sections.get(key) ?? new Map();
      sections.set(key, current);
      return;
    }
    const at = stripped.search(/[=:]/);
    if (at < 0) fail(line, `no "=" or ":" in "${stripped}"`);
    const name = normalizeOption(stripped.slice(0, at).trim());
    if (!name) fail(line, 'empty option name');
    if (!current) fail(line, `option "${name}" comes before any [section]`);
    const values = current!.get(name) ?? [];
    values.push({ value: unquote(stripped.slice(at + 1).trim()), file, line });
    current!.set(name, values);
    last = { values, index: values.length - 1 };
  });
  return sections;
}

/** Later files override earlier ones option by option, as oslo.config reads its files in order. */
export function mergeIni(files: readonly IniSections[]): IniSections {
  const merged: IniSections = new Map();
  for (const sections of files) {
    for (const [section, options] of sections) {
      const into = merged.get(section) ?? new Map<string, IniValue[]>();
      for (const [option, values] of options) into.set(option, [...(into.get(option) ?? []), ...values]);
      merged.set(section, into);
    }
  }
  return merged;
}
