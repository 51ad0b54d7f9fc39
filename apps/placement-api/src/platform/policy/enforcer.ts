import { Check, referencedRules } from '#platform/policy/check.js';
import { DEFAULT_RULES, RuleDefault } from '#platform/policy/defaults.js';
import { Credentials, evaluate, RuleLookup, Target } from '#platform/policy/evaluate.js';
import { buildRuleSet, checkRuleSet, lookupIn, PolicySettings } from '#platform/policy/rule-set.js';

export type Decision =
  | { readonly allowed: true }
  /** scope: the token's scope is not one the rule serves; rule: the check said no. */
  | { readonly allowed: false; readonly reason: 'scope' | 'rule' };

type TokenScope = 'system' | 'domain' | 'project';

/** oslo's _enforce_scope: system beats domain beats project. */
function tokenScope(creds: Credentials): TokenScope {
  if (creds.system) return 'system';
  if (creds.domain_id) return 'domain';
  return 'project';
}

/** oslo.policy's Enforcer.enforce over placement's registered defaults and the operator's file. */
export class Enforcer {
  readonly rules: ReadonlyMap<string, Check>;
  /** Rules that refer to an undefined rule (they deny); oslo logs these at load. */
  readonly undefinedReferences: readonly string[];
  /**
   * Rules of the operator's file that nothing registers or refers to: most likely a name that
   * changed (the ledger's single placement:ledger:read became one rule per route), so they warn.
   */
  readonly unknownRules: readonly string[];
  private readonly registered: ReadonlyMap<string, RuleDefault>;
  private readonly lookup: RuleLookup;

  constructor(private readonly settings: PolicySettings, defaults: readonly RuleDefault[] = DEFAULT_RULES) {
    this.registered = new Map(defaults.map((rule) => [rule.name, rule]));
    this.rules = buildRuleSet(defaults, settings);
    this.undefinedReferences = checkRuleSet(this.rules).undefinedReferences;
    const referenced = new Set([...this.rules.values()].flatMap((check) => referencedRules(check)));
    this.unknownRules = [...settings.overrides.keys()].filter((name) => name !== 'default' && !this.registered.has(name) && !referenced.has(name));
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
