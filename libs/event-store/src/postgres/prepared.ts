import { createHash } from 'node:crypto';

const names = new Map<string, string>();

/**
 * A statement's name on every connection: from its text, so one text is prepared once per
 * connection. `pl` names the protocol's named statements (pg's `name`), `plx` those PREPAREd in
 * SQL (BatchedSql): they share the server's namespace, and pg must not meet one it did not make.
 */
export function statementName(text: string, kind: 'pl' | 'plx' = 'pl'): string {
  const key = `${kind}:${text}`;
  let name = names.get(key);
  if (name === undefined) {
    name = `${kind}_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(key, name);
  }
  return name;
}
