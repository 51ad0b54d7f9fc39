/**
 * A parsed policy rule: the tree oslo.policy builds from a check string. Plain data, so a
 * rule set can be compared, printed and evaluated without any framework.
 */
export type Check =
  | { readonly kind: 'true' }
  | { readonly kind: 'false' }
  | { readonly kind: 'not'; readonly check: Check }
  | { readonly kind: 'and'; readonly checks: readonly Check[] }
  | { readonly kind: 'or'; readonly checks: readonly Check[] }
  /** `rule:name`: the named rule of the same rule set. */
  | { readonly kind: 'rule'; readonly match: string }
  /** `role:name`: the caller holds that role (case-insensitive). */
  | { readonly kind: 'role'; readonly match: string }
  /** `key:value`, e.g. `project_id:%(project_id)s` or `system_scope:all`. */
  | { readonly kind: 'generic'; readonly key: string; readonly match: string };

export const TRUE: Check = { kind: 'true' };
export const FALSE: Check = { kind: 'false' };

/** oslo.policy's str(check): how a check reads in logs and in the deprecated-override test. */
export function checkToString(check: Check): string {
  switch (check.kind) {
    case 'true': return '@';
    case 'false': return '!';
    case 'not': return `not ${checkToString(check.check)}`;
    case 'and': return `(${check.checks.map(checkToString).join(' and ')})`;
    case 'or': return `(${check.checks.map(checkToString).join(' or ')})`;
    case 'rule': return `rule:${check.match}`;
    case 'role': return `role:${check.match}`;
    case 'generic': return `${check.key}:${check.match}`;
  }
}

/** The names of the rules a check refers to with `rule:name`. */
export function referencedRules(check: Check): string[] {
  switch (check.kind) {
    case 'rule': return [check.match];
    case 'not': return referencedRules(check.check);
    case 'and':
    case 'or': return check.checks.flatMap(referencedRules);
    default: return [];
  }
}
