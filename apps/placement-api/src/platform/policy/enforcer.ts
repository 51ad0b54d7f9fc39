import { Check } from './check.js';
import { DEFAULT_RULES, RuleDefault } from './defaults.js';
import { Credentials, evaluate, RuleLookup, Target } from './evaluate.js';
import { buildRuleSet, checkRuleSet, lookupIn, PolicySettings } from './rule-set.js';

export type Decision =
  | { readonly allowed: true }
  /** scope: the token's scope is not one the rule serves; rule: the check said no. */
  | { readonly allowed: false; readonly reason: 'scope' | 'rule' };

export type TokenScope = 'system' | 'domain' | 'project';

/** oslo's _enforce_scope: system beats domain beats project. */
export function tokenScope(creds: Credentials): TokenScope {
  if (creds.system) return 'system';
  if (creds.domain_id) return 'domain';
  return 'project';
}

/** oslo.policy's Enforcer.enforce over placement's registered defaults and the operator's file. */
export class Enforcer {
  readonly rules: ReadonlyMap<string, Check>;
  /** Rules that refer to an undefined rule (they deny); oslo logs these at load. */
  readonly undefinedReferences: readonly string[];
  private readonly registered: ReadonlyMap<string, RuleDefault>;
  private readonly lookup: RuleLookup;

  constructor(private readonly settings: PolicySettings, defaults: readonly RuleDefault[] = DEFAULT_RULES) {
    this.registered = new Map(defaults.map((rule) => [rule.name, rule]));
    this.rules = buildRuleSet(defaults, settings);
    this.undefinedReferences = checkRuleSet(this.rules).undefinedReferences;
    this.lookup = lookupIn(this.rules);
  }

  authorize(ruleName: string, target: Target, credentials: Credentials): Decision {
    // oslo.context calls it system_scope; oslo.policy's scope check reads `system`.
    const creds = credentials.system_scope ? { ...credentials, system: credentials.system_scope } : credentials;
    // The scope is the registered rule's, whatever an operator's file says about its check.
    const scopes = this.registered.get(ruleName)?.scopeTypes ?? [];
    if (this.settings.enforceScope && scopes.length > 0 && !scopes.includes(tokenScope(creds))) {
      return { allowed: false, reason: 'scope' };
    }
    const rule = this.lookup(ruleName);
    if (rule === undefined || !evaluate(rule, target, creds, this.lookup)) return { allowed: false, reason: 'rule' };
    return { allowed: true };
  }
}
