import { Check, checkToString, referencedRules, TRUE } from './check.js';
import { ADMIN_API, RuleDefault } from './defaults.js';
import { RuleLookup } from './evaluate.js';
import { parseRule, PolicyParseError } from './parse-rule.js';

export interface PolicySettings {
  /** false: each deprecated legacy rule is OR-ed with its new default. */
  readonly enforceNewDefaults: boolean;
  /** true: a token whose scope a rule does not serve is refused. */
  readonly enforceScope: boolean;
  /** true: every registered rule but admin_api becomes "@" (upstream's OpenPolicyFixture). */
  readonly open: boolean;
  /** The operator's policy file, rule name -> check; each one replaces a default entirely. */
  readonly overrides: ReadonlyMap<string, Check>;
}

/** oslo's Enforcer._handle_deprecated_rule, for a default the operator did not override. */
function withDeprecation(rule: RuleDefault, settings: PolicySettings): Check {
  const check = parseRule(rule.checkStr);
  const deprecated = rule.deprecated;
  if (!deprecated) return check;
  const overriddenOld = settings.overrides.get(deprecated.name);
  // An operator who customised the old name keeps that rule for the new name, unless the
  // override merely points at the new rule (what generated sample files contain).
  if (deprecated.name !== rule.name && overriddenOld && checkToString(overriddenOld) !== `rule:${rule.name}`) {
    return overriddenOld;
  }
  if (!settings.enforceNewDefaults && deprecated.checkStr !== rule.checkStr) {
    return { kind: 'or', checks: [check, parseRule(deprecated.checkStr)] };
  }
  return check;
}

/** The effective rules, as oslo's load_rules leaves them: file rules first, then defaults. */
export function buildRuleSet(defaults: readonly RuleDefault[], settings: PolicySettings): Map<string, Check> {
  const rules = new Map(settings.overrides);
  for (const rule of defaults) {
    if (!rules.has(rule.name)) rules.set(rule.name, withDeprecation(rule, settings));
  }
  if (settings.open) {
    for (const rule of defaults) if (rule.name !== ADMIN_API) rules.set(rule.name, TRUE);
  }
  return rules;
}

/** oslo's Rules.__missing__: an unknown name falls back to the rule called "default", if any. */
export function lookupIn(rules: ReadonlyMap<string, Check>): RuleLookup {
  return (name) => rules.get(name) ?? rules.get('default');
}

const resolvedName = (rules: ReadonlyMap<string, Check>, name: string) => (rules.has(name) ? name : rules.has('default') ? 'default' : undefined);

/**
 * Rules that refer to rules nobody defined (they fail closed: worth a warning, as oslo logs);
 * a cycle throws, since evaluating it could never finish.
 */
export function checkRuleSet(rules: ReadonlyMap<string, Check>): { undefinedReferences: string[] } {
  const undefinedReferences = [...rules].filter(([, check]) => referencedRules(check).some((ref) => !resolvedName(rules, ref))).map(([name]) => name);
  const done = new Set<string>();
  const visit = (name: string, path: string[]): void => {
    if (path.includes(name)) throw new PolicyParseError(`rules ${[...path.slice(path.indexOf(name)), name].join(' -> ')} form a cycle`);
    if (done.has(name)) return;
    for (const ref of referencedRules(rules.get(name)!)) {
      const next = resolvedName(rules, ref);
      if (next) visit(next, [...path, name]);
    }
    done.add(name);
  };
  for (const name of rules.keys()) visit(name, []);
  return { undefinedReferences };
}
