import { createHash } from 'node:crypto';

// One map per kind, keyed by the text itself: every statement sent looks its name up here.
const names = { pl: new Map<string, string>(), plx: new Map<string, string>() };

/**
 * A statement's name on every connection: from its text, so one text is prepared once per
 * connection. `pl` names the protocol's named statements (pg's `name`), `plx` those PREPAREd in
 * SQL (BatchedSql): they share the server's namespace, and pg must not meet one it did not make.
 */
export function statementName(text: string, kind: 'pl' | 'plx' = 'pl'): string {
  let name = names[kind].get(text);
  if (name === undefined) {
    name = `${kind}_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names[kind].set(text, name);
  }
  return name;
}
