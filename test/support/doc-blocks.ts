/**
 * The manual's code blocks, as test/e2e/doc-commands.e2e-spec.ts runs them: which are commands,
 * which are marked as not run (and why), and each command's expected output where the text shows
 * one. Pure functions over the Markdown text.
 */

/** Info strings whose blocks are shell commands; every other block (json, yaml, text, ini…) is not. */
export const COMMAND_INFO = new Set(['sh', 'shell', 'bash', 'console']);

/** `<!-- not run: <reason> -->`, on the line right before a command block. */
const NOT_RUN = /^<!--\s*not run:\s*(.*?)\s*-->$/;

export interface DocBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly info: string;
  readonly text: string;
  readonly command: boolean;
  /** The marker's reason, when the block is marked as not run. */
  readonly notRun?: string;
}

export interface DocProblem {
  readonly file: string;
  readonly line: number;
  readonly problem: string;
}

export interface ParsedPage {
  readonly blocks: DocBlock[];
  readonly problems: DocProblem[];
}

/** Every fenced block of a page, with the problems a reader or the test would trip on. */
export function parsePage(markdown: string, file: string): ParsedPage {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  const problems: DocProblem[] = [];
  const markers = new Map<number, string>();
  for (let i = 0; i < lines.length; i++) {
    const trimmed = lines[i].trim();
    if (/^<!--\s*not run\b/.test(trimmed)) {
      // A marker without a reason still keeps its block from running: the test fails on it instead.
      const reason = NOT_RUN.exec(trimmed)?.[1] ?? '';
      if (!reason) problems.push({ file, line: i + 1, problem: 'a not-run marker without a reason (<!-- not run: <reason> -->)' });
      markers.set(i, reason);
    }
    const open = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const close = new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end])) end++;
    const body = lines.slice(i + 1, end).map((line) => stripIndent(line, indent.length));
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const notRun = markers.get(before);
    const command = COMMAND_INFO.has(info);
    if (!info) problems.push({ file, line: i + 1, problem: 'a code block without an info string: say what it holds (sh, json, yaml, text, …)' });
    if (end >= lines.length) problems.push({ file, line: i + 1, problem: 'a code block that is never closed' });
    if (notRun !== undefined) {
      markers.delete(before);
      if (!command) problems.push({ file, line: before + 1, problem: `a not-run marker before a ${info || 'plain'} block, which is not run anyway` });
    }
    blocks.push({ file, line: i + 1, info, text: body.join('\n'), command, ...(notRun !== undefined && command ? { notRun } : {}) });
    i = end;
  }
  for (const line of markers.keys()) problems.push({ file, line: line + 1, problem: 'a not-run marker that is not right before a code block' });
  return { blocks, problems };
}

function stripIndent(line: string, width: number): string {
  let cut = 0;
  while (cut < width && line[cut] === ' ') cut++;
  return line.slice(cut);
}

/** What a comment after a command says its output is: a status and/or `"key": value` pairs. */
export interface Expected {
  readonly status?: number;
  readonly pairs: readonly (readonly [string, unknown])[];
}

export interface Step {
  /** 0-based line of the step's first line within the block. */
  readonly start: number;
  readonly command: string;
  readonly expected?: Expected;
}

/**
 * The block's commands, one step per command (continuation lines, open quotes, pipes and
 * here-documents kept with it), each with the output the comment lines right under it show.
 * In a `console` block, commands are the lines after a `$ ` prompt and the other lines output.
 */
export function stepsOf(block: Pick<DocBlock, 'text' | 'info'>): Step[] {
  const lines = block.text.split('\n');
  const prompted = block.info === 'console';
  const steps: { start: number; command: string; shown: string[] }[] = [];
  let previous: (typeof steps)[number] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    if (trimmed === '') {
      previous = undefined;
      continue;
    }
    const isCommand = prompted ? /^\$ /.test(trimmed) : !trimmed.startsWith('#');
    if (!isCommand) {
      if (previous) previous.shown.push(prompted ? trimmed : trimmed.replace(/^#\s?/, ''));
      continue;
    }
    const start = i;
    const taken = [prompted ? trimmed.slice(2) : line];
    let scan = scanLine(taken[0], { quote: null });
    while (i + 1 < lines.length && (scan.quote !== null || scan.continues)) {
      i++;
      taken.push(lines[i]);
      scan = scanLine(lines[i], scan);
    }
    for (const delimiter of scan.heredocs) {
      while (i + 1 < lines.length) {
        i++;
        taken.push(lines[i]);
        if (lines[i].trim() === delimiter) break;
      }
    }
    previous = { start, command: taken.join('\n'), shown: [] };
    steps.push(previous);
  }
  return steps.map(({ start, command, shown }) => {
    const expected = shown.length > 0 ? expectedOf(shown.join(' ')) : undefined;
    return { start, command, ...(expected ? { expected } : {}) };
  });
}

interface Scan {
  readonly quote: "'" | '"' | null;
  readonly continues?: boolean;
  readonly heredocs: string[];
}

/** Where a shell line leaves its quotes, whether it goes on, and the here-documents it opens. */
function scanLine(line: string, from: { quote: "'" | '"' | null }): Scan {
  let quote = from.quote;
  const heredocs: string[] = [];
  let i = 0;
  for (; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') {
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
      break;
    } else if (c === '<' && line[i + 1] === '<' && line[i + 2] !== '<') {
      const doc = /^<<-?\s*(['"]?)(\w+)\1/.exec(line.slice(i));
      if (doc) {
        heredocs.push(doc[2]);
        i += doc[0].length - 1;
      }
    }
  }
  const code = line.slice(0, i).trimEnd();
  const continues = quote === null && (/\\$/.test(line) || /(\|\||&&|\|)$/.test(code));
  return { quote, continues, heredocs };
}

/**
 * `200`, `404 …`, `204: …`, `{"a": 1, …}` or `403 {"errors": […]}`: the status first, then the
 * `"key": scalar` pairs of the JSON shown (`…` and `...` stand for what is left out, and a string
 * holding them is not compared).
 */
export function expectedOf(shown: string): Expected | undefined {
  const status = /^(\d{3})\b/.exec(shown);
  const rest = status ? shown.slice(status[0].length) : shown;
  const pairs: [string, unknown][] = [];
  const pair = /"([^"\\]+)":\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/g;
  for (const match of rest.matchAll(pair)) {
    const value = JSON.parse(match[2]);
    if (typeof value === 'string' && (value.includes('…') || value.includes('...'))) continue;
    pairs.push([match[1], value]);
  }
  if (!status && pairs.length === 0) return undefined;
  return { ...(status ? { status: Number(status[1]) } : {}), pairs };
}

/** Every `"key": scalar` pair anywhere in the JSON documents of an output (one per line, or one). */
export function pairsIn(output: string): Set<string> {
  const documents: unknown[] = [];
  const whole = output.trim();
  try {
    documents.push(JSON.parse(whole));
  } catch {
    for (const line of whole.split('\n')) {
      try {
        documents.push(JSON.parse(line));
      } catch { /* not JSON: nothing to compare in it */ }
    }
  }
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (inner === null || typeof inner !== 'object') found.add(pairKey(key, inner));
        walk(inner);
      }
    }
  };
  documents.forEach(walk);
  return found;
}

export const pairKey = (key: string, value: unknown) => `"${key}": ${JSON.stringify(value)}`;
