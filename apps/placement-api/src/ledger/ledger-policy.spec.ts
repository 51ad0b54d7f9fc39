import { credentialsOf, PolicyIdentity } from '../platform/policy/credentials.js';
import { DEFAULT_RULES } from '../platform/policy/defaults.js';
import { Enforcer } from '../platform/policy/enforcer.js';
import { parsePolicyDocument } from '../platform/policy/policy-file.js';
import { policyForRoute } from '../platform/policy/route-policies.js';

const person = (roles: string[], extra: Partial<PolicyIdentity> = {}): PolicyIdentity => ({
  userId: 'u1', projectId: 'p1', roles, systemScope: false, ...extra,
});
const settings = (enforceNewDefaults: boolean, file?: Record<string, string>) => ({
  enforceNewDefaults, enforceScope: true, open: false, overrides: file ? parsePolicyDocument(JSON.stringify(file)) : new Map(),
});
const allowed = (enforcer: Enforcer, who: PolicyIdentity) =>
  enforcer.authorize('placement:ledger:read', { project_id: who.projectId, user_id: who.userId }, credentialsOf(who)).allowed;

describe('the ledger read rule', () => {
  it('is registered, for project-scoped tokens', () => {
    expect(DEFAULT_RULES.find((rule) => rule.name === 'placement:ledger:read')).toEqual({
      name: 'placement:ledger:read', checkStr: 'rule:admin_or_service_api or role:reader', scopeTypes: ['project'],
    });
  });

  it.each([true, false])('lets admin, service and a reader read, nobody else (new defaults enforced: %s)', (enforceNewDefaults) => {
    const enforcer = new Enforcer(settings(enforceNewDefaults));
    expect(allowed(enforcer, person(['admin']))).toBe(true);
    expect(allowed(enforcer, person(['service']))).toBe(true);
    expect(allowed(enforcer, person(['reader']))).toBe(true);
    expect(allowed(enforcer, person(['member']))).toBe(false);
    expect(allowed(enforcer, person([]))).toBe(false);
  });

  it('refuses a system-scoped token, as every project-scoped rule does', () => {
    const enforcer = new Enforcer(settings(true));
    expect(allowed(enforcer, person(['admin', 'reader'], { projectId: null, systemScope: true }))).toBe(false);
  });

  it('can be narrowed by an operator policy file', () => {
    const enforcer = new Enforcer(settings(true, { 'placement:ledger:read': 'role:admin' }));
    expect(allowed(enforcer, person(['admin']))).toBe(true);
    expect(allowed(enforcer, person(['reader']))).toBe(false);
  });

  it('guards every route of the history, feed, audits and time travel', () => {
    const routes = [
      '/ledger/resource_providers/:uuid/history', '/ledger/consumers/:uuid/history', '/ledger/events',
      '/ledger/audit/provider-claims', '/ledger/audit/request/:request_id', '/ledger/audit/stale-consumers',
      ...['', '/inventories', '/traits', '/aggregates', '/usages', '/allocations'].map((tail) => `/ledger/as-of/resource_providers/:uuid${tail}`),
      '/ledger/as-of/allocations/:consumer_uuid', '/ledger/as-of/usages',
    ];
    for (const route of routes) expect(policyForRoute('GET', route)?.rule).toBe('placement:ledger:read');
    expect(policyForRoute('POST', '/ledger/events')).toBeUndefined();
  });
});
