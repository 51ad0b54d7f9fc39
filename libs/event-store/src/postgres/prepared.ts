import { createHash } from 'node:crypto';

const names = new Map<string, string>();

/** A statement's name on every connection: from its text, so one text is prepared once per connection. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `pl_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}
