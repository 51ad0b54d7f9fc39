import { DEFAULT_RULES, RuleDefault } from '#platform/policy/defaults.js';
import { ROUTE_POLICIES } from './route-policies.js';

/** "GET /resource_providers/{uuid}" for each route a rule guards, in the table's order. */
function operationsOf(rule: string): string[] {
  return Object.entries(ROUTE_POLICIES)
    .filter(([, policy]) => policy?.rule === rule)
    .map(([route]) => route.replace(/:([^/]+)/g, '{$1}'));
}

function entry(rule: RuleDefault): string {
  const lines: string[] = [];
  if (rule.description) lines.push(`# ${rule.description}`);
  for (const operation of operationsOf(rule.name)) lines.push(`# ${operation}`);
  if (rule.scopeTypes.length > 0) lines.push(`# Intended scope(s): ${rule.scopeTypes.join(', ')}`);
  lines.push(`#${JSON.stringify(rule.name)}: ${JSON.stringify(rule.checkStr)}`);
  if (rule.deprecated && rule.deprecated.checkStr !== rule.checkStr) {
    lines.push(`# DEPRECATED: until enforce_new_defaults, ${JSON.stringify(rule.deprecated.checkStr)} is also accepted (${rule.deprecated.name}).`);
  }
  return lines.join('\n');
}

/**
 * Every rule with its default, commented out, in oslopolicy-sample-generator's shape: the file an
 * operator copies to PLACEMENT_POLICY_FILE and uncomments the rules it changes.
 */
export function samplePolicy(rules: readonly RuleDefault[] = DEFAULT_RULES): string {
  const header = [
    '# Placement Ledger policy: every rule with its default, commented out.',
    '# Uncomment a rule and change its check to override it (PLACEMENT_POLICY_FILE); see docs/authorization.md.',
  ].join('\n');
  return `${[header, ...rules.map(entry)].join('\n\n')}\n`;
}
