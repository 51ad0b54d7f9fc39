import { credentialsOf, PolicyIdentity } from '../platform/policy/credentials.js';
import { DEFAULT_RULES } from '#platform/policy/defaults.js';
import { Enforcer } from '../platform/policy/enforcer.js';
import { parsePolicyDocument } from '#platform/policy/policy-file.js';
import { policyForRoute } from '../platform/policy/route-policies.js';

const person = (roles: string[], extra: Partial<PolicyIdentity> = {}): PolicyIdentity => ({
  userId: 'u1', projectId: 'p1', roles, systemScope: false, ...extra,
});
const settings = (enforceNewDefaults: boolean, file?: Record<string, string>) => ({
  enforceNewDefaults, enforceScope: true, open: false, overrides: file ? parsePolicyDocument(JSON.stringify(file)) : new Map(),
});
const allowed = (enforcer: Enforcer, rule: string, who: PolicyIdentity, project = who.projectId) =>
  enforcer.authorize(rule, { project_id: project, user_id: who.userId }, credentialsOf(who)).allowed;

const ADMIN_OR_SERVICE = [
  'placement:ledger:resource_providers:history', 'placement:ledger:resource_providers:tree', 'placement:ledger:consumers:history',
  'placement:ledger:events', 'placement:ledger:audit:provider_claims', 'placement:ledger:audit:request',
  'placement:ledger:audit:stale_consumers', 'placement:ledger:capacity', 'placement:api_description:show',
];

describe('the ledger rules', () => {
  it('registers no rule that a reader passes alone: placement:ledger:read is gone', () => {
    expect(DEFAULT_RULES.find((rule) => rule.name === 'placement:ledger:read')).toBeUndefined();
    for (const name of [...ADMIN_OR_SERVICE, 'placement:ledger:usage']) {
      const rule = DEFAULT_RULES.find((candidate) => candidate.name === name)!;
      expect(rule.scopeTypes).toEqual(['project']);
      expect(rule.description).toBeTruthy();
    }
  });

  it.each([true, false])('let admin and service read, neither a member nor a reader (new defaults enforced: %s)', (enforceNewDefaults) => {
    const enforcer = new Enforcer(settings(enforceNewDefaults));
    for (const rule of ADMIN_OR_SERVICE) {
      expect([rule, allowed(enforcer, rule, person(['admin']))]).toEqual([rule, true]);
      expect([rule, allowed(enforcer, rule, person(['service']))]).toEqual([rule, true]);
      expect([rule, allowed(enforcer, rule, person(['member', 'reader']))]).toEqual([rule, false]);
    }
  });

  it('let a project\'s reader read that project\'s usage over time, and no other project\'s', () => {
    const enforcer = new Enforcer(settings(true));
    expect(allowed(enforcer, 'placement:ledger:usage', person(['reader']), 'p1')).toBe(true);
    expect(allowed(enforcer, 'placement:ledger:usage', person(['reader']), 'p2')).toBe(false);
    expect(allowed(enforcer, 'placement:ledger:usage', person(['member']), 'p1')).toBe(false);
  });

  it('refuse a system-scoped token, as every project-scoped rule does', () => {
    const enforcer = new Enforcer(settings(true));
    expect(allowed(enforcer, 'placement:ledger:events', person(['admin', 'reader'], { projectId: null, systemScope: true }))).toBe(false);
  });

  it('can be opened by an operator policy file, and the old single rule is reported as unknown', () => {
    const enforcer = new Enforcer(settings(true, { 'placement:ledger:consumers:history': 'rule:admin_or_project_reader_or_service_api', 'placement:ledger:read': '@' }));
    expect(allowed(enforcer, 'placement:ledger:consumers:history', person(['reader']))).toBe(true);
    expect(allowed(enforcer, 'placement:ledger:consumers:history', person(['reader']), 'p2')).toBe(false);
    expect(enforcer.unknownRules).toEqual(['placement:ledger:read']);
  });

  it('guard the histories, feed and audits with rules of their own, judged against the data', () => {
    const routes: [string, string, string][] = [
      ['/ledger/resource_providers/:uuid/history', 'placement:ledger:resource_providers:history', 'data'],
      ['/ledger/consumers/:uuid/history', 'placement:ledger:consumers:history', 'data'],
      ['/ledger/events', 'placement:ledger:events', 'data'],
      ['/ledger/audit/provider-claims', 'placement:ledger:audit:provider_claims', 'data'],
      ['/ledger/audit/request/:request_id', 'placement:ledger:audit:request', 'data'],
      ['/ledger/audit/stale-consumers', 'placement:ledger:audit:stale_consumers', 'data'],
      ['/ledger/usage', 'placement:ledger:usage', 'asked'],
      ['/ledger/usage/totals', 'placement:ledger:usage', 'asked'],
    ];
    for (const [route, rule, target] of routes) expect(policyForRoute('GET', route)).toEqual({ rule, target });
    expect(policyForRoute('POST', '/ledger/events')).toBeUndefined();
  });

  it('guard time travel and explain with the very rule and target of the GET they mirror', () => {
    const mirrors: [string, string][] = [
      ['/ledger/as-of/resource_providers/:uuid', '/resource_providers/:uuid'],
      ...['/inventories', '/traits', '/aggregates', '/usages', '/allocations'].map((tail): [string, string] => [
        `/ledger/as-of/resource_providers/:uuid${tail}`, `/resource_providers/:uuid${tail}`]),
      ['/ledger/as-of/allocations/:consumer_uuid', '/allocations/:consumer_uuid'],
      ['/ledger/as-of/usages', '/usages'],
      ['/ledger/explain/allocation_candidates', '/allocation_candidates'],
    ];
    for (const [ours, upstream] of mirrors) expect(policyForRoute('GET', ours)).toEqual(policyForRoute('GET', upstream));
  });
});
