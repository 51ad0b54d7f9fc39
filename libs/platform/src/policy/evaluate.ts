import { Check } from './check.js';
import { literalKind, PolicyValue, pyStr, substitute } from './python-values.js';

/** What the caller presents: oslo.context's to_policy_values(). */
export type Credentials = Readonly<Record<string, PolicyValue>>;
/** What the action is about, e.g. `{project_id, user_id}`. */
export type Target = Readonly<Record<string, PolicyValue>>;

/** Finds the check a `rule:name` refers to; undefined fails closed, as oslo does. */
export type RuleLookup = (name: string) => Check | undefined;

/** oslo's GenericCheck._find_in_dict: a dotted path into the credentials, any element of a list. */
function findInCredentials(value: PolicyValue | undefined, path: readonly string[], match: string): boolean {
  if (path.length === 0) return match === pyStr(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const [key, ...rest] = path;
  if (!Object.prototype.hasOwnProperty.call(value, key)) return false;
  const next = (value as Record<string, PolicyValue>)[key];
  if (Array.isArray(next)) return next.some((item: PolicyValue) => findInCredentials(item, rest, match));
  return findInCredentials(next, rest, match);
}

/**
 * Evaluates a check tree exactly as oslo.policy's check classes do, including their quirks:
 * a missing target key fails the check, and `key:%(key)s` compares Python str() values, so a
 * None on both sides ('None' == 'None') matches.
 */
export function evaluate(check: Check, target: Target, creds: Credentials, rules: RuleLookup): boolean {
  switch (check.kind) {
    case 'true': return true;
    case 'false': return false;
    case 'not': return !evaluate(check.check, target, creds, rules);
    case 'and': return check.checks.every((c) => evaluate(c, target, creds, rules));
    case 'or': return check.checks.some((c) => evaluate(c, target, creds, rules));
    case 'rule': {
      const rule = rules(check.match);
      return rule !== undefined && evaluate(rule, target, creds, rules);
    }
    case 'role': {
      const role = substitute(check.match, target);
      const held = creds.roles;
      if (role === undefined || !Array.isArray(held)) return false;
      return held.some((r: PolicyValue) => pyStr(r).toLowerCase() === role.toLowerCase());
    }
    case 'generic': {
      const match = substitute(check.match, target);
      if (match === undefined) return false;
      const literal = literalKind(check.key);
      if (literal !== undefined) return match === literal;
      return findInCredentials(creds, check.key.split('.'), match);
    }
  }
}
