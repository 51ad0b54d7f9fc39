import { Check, FALSE, TRUE } from './check.js';

/** A check string oslo.policy would only log and then treat as "deny"; we refuse it up front. */
export class PolicyParseError extends Error {}

type Token = 'check' | 'and_expr' | 'or_expr' | '(' | ')' | 'and' | 'or' | 'not' | 'string';
interface Item { readonly token: Token; readonly value: Check | null }

const SUBSTITUTION = /%(\([^)]*\)s|%)/g;

/** One `kind:match` (or `@`/`!`), as oslo's _parse_check reads it. */
export function parseBaseCheck(text: string): Check {
  if (text === '@') return TRUE;
  if (text === '!') return FALSE;
  const colon = text.indexOf(':');
  if (colon < 0) throw new PolicyParseError(`"${text}" is not a check (expected kind:match, @ or !)`);
  const key = text.slice(0, colon);
  const match = text.slice(colon + 1);
  if (key === '') throw new PolicyParseError(`"${text}" has no check kind before the colon`);
  if (key === 'http' || key === 'https') throw new PolicyParseError(`"${text}": remote ${key} checks are not supported`);
  // Python's `match % target` supports only %(name)s and %% usefully; anything else raises there.
  if (match.replace(SUBSTITUTION, '').includes('%')) {
    throw new PolicyParseError(`"${text}": only %(name)s substitutions are supported`);
  }
  if (key === 'rule') return { kind: 'rule', match };
  if (key === 'role') return { kind: 'role', match };
  return { kind: 'generic', key, match };
}

/** oslo's _parse_tokenize: whitespace-separated words, parentheses peeled off their ends. */
function* tokenize(rule: string): Generator<Item> {
  for (const word of rule.split(/\s+/)) {
    if (!word) continue;
    let clean = word.replace(/^\(+/, '');
    for (let i = 0; i < word.length - clean.length; i++) yield { token: '(', value: null };
    if (!clean) continue;
    const tok = clean;
    clean = tok.replace(/\)+$/, '');
    const trailing = tok.length - clean.length;
    const lowered = clean.toLowerCase();
    if (lowered === 'and' || lowered === 'or' || lowered === 'not') {
      yield { token: lowered, value: null };
    } else if (clean) {
      const quoted = tok.length >= 2 && (tok[0] === '"' || tok[0] === "'") && tok[tok.length - 1] === tok[0];
      yield quoted ? { token: 'string', value: null } : { token: 'check', value: parseBaseCheck(clean) };
    }
    for (let i = 0; i < trailing; i++) yield { token: ')', value: null };
  }
}

type Reduction = (values: (Check | null)[]) => Item;
const and = (checks: Check[]): Check => ({ kind: 'and', checks });
const or = (checks: Check[]): Check => ({ kind: 'or', checks });
const operands = (check: Check) => (check.kind === 'and' || check.kind === 'or' ? [...check.checks] : [check]);

/** oslo's ParseState reducers, in the order its metaclass tries them. */
const REDUCERS: [Token[], Reduction][] = [
  [['(', 'or_expr', ')'], (v) => ({ token: 'check', value: v[1] })],
  [['(', 'and_expr', ')'], (v) => ({ token: 'check', value: v[1] })],
  [['(', 'check', ')'], (v) => ({ token: 'check', value: v[1] })],
  [['check', 'and', 'check'], (v) => ({ token: 'and_expr', value: and([v[0]!, v[2]!]) })],
  // "A or B and C": the and binds to the or's last operand.
  [['or_expr', 'and', 'check'], (v) => {
    const rest = operands(v[0]!);
    const last = rest.pop()!;
    const joined = last.kind === 'and' ? and([...last.checks, v[2]!]) : and([last, v[2]!]);
    return { token: 'or_expr', value: or([...rest, joined]) };
  }],
  [['and_expr', 'and', 'check'], (v) => ({ token: 'and_expr', value: and([...operands(v[0]!), v[2]!]) })],
  [['and_expr', 'or', 'check'], (v) => ({ token: 'or_expr', value: or([v[0]!, v[2]!]) })],
  [['check', 'or', 'check'], (v) => ({ token: 'or_expr', value: or([v[0]!, v[2]!]) })],
  [['or_expr', 'or', 'check'], (v) => ({ token: 'or_expr', value: or([...operands(v[0]!), v[2]!]) })],
  [['not', 'check'], (v) => ({ token: 'check', value: { kind: 'not', check: v[1]! } })],
];

function reduce(stack: Item[]): void {
  for (;;) {
    const hit = REDUCERS.find(([pattern]) => stack.length >= pattern.length
      && pattern.every((token, i) => stack[stack.length - pattern.length + i].token === token));
    if (!hit) return;
    const [pattern, build] = hit;
    const items = stack.splice(stack.length - pattern.length, pattern.length);
    stack.push(build(items.map((item) => item.value)));
  }
}

/** A check string in oslo.policy's language, parsed with oslo's greedy shift-reduce rules. */
export function parseRule(rule: string): Check {
  if (rule === '') return TRUE;
  const stack: Item[] = [];
  for (const item of tokenize(rule)) {
    stack.push(item);
    reduce(stack);
  }
  if (stack.length !== 1 || stack[0].value === null) throw new PolicyParseError(`could not parse rule "${rule}"`);
  return stack[0].value;
}

/** The old list-of-lists syntax: the outer list is "or", each inner list "and". */
export function parseListRule(rule: readonly (string | readonly string[])[]): Check {
  if (rule.length === 0) return TRUE;
  const alternatives = rule
    .map((inner) => (typeof inner === 'string' ? [inner] : inner))
    .filter((inner) => inner.length > 0)
    .map((inner) => inner.map(parseBaseCheck))
    .map((checks) => (checks.length === 1 ? checks[0] : and(checks)));
  if (alternatives.length === 0) return FALSE;
  return alternatives.length === 1 ? alternatives[0] : or(alternatives);
}
