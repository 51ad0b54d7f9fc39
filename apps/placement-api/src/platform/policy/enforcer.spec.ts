import { credentialsOf, PolicyIdentity } from './credentials.js';
import { Enforcer } from './enforcer.js';
import { parsePolicyDocument } from '#platform/policy/policy-file.js';
import { PolicySettings } from '#platform/policy/rule-set.js';

const settings = (changes: Partial<Omit<PolicySettings, 'overrides'>> & { file?: Record<string, unknown> } = {}): PolicySettings => ({
  enforceNewDefaults: changes.enforceNewDefaults ?? false,
  enforceScope: changes.enforceScope ?? true,
  open: changes.open ?? false,
  overrides: changes.file ? parsePolicyDocument(JSON.stringify(changes.file)) : new Map(),
});

const person = (roles: string[], extra: Partial<PolicyIdentity> = {}): PolicyIdentity => ({
  userId: 'u1', projectId: 'p1', roles, systemScope: false, ...extra,
});
const admin = person(['admin']);
const service = person(['service']);
const member = person(['member', 'reader']);
const reader = person(['reader']);
const systemAdmin = person(['admin', 'member', 'reader'], { projectId: null, systemScope: true });

const ownTarget = (who: PolicyIdentity) => ({ project_id: who.projectId, user_id: who.userId });

function decide(enforcer: Enforcer, rule: string, who: PolicyIdentity, target: Record<string, string | null> = ownTarget(who)) {
  return enforcer.authorize(rule, target, credentialsOf(who));
}
const allowed = (enforcer: Enforcer, rule: string, who: PolicyIdentity, target?: Record<string, string | null>) => decide(enforcer, rule, who, target).allowed;

describe('the policy enforcer with upstream master defaults', () => {
  const secure = new Enforcer(settings({ enforceNewDefaults: true }));

  it('lets admin and service manage providers, and nobody else', () => {
    expect(allowed(secure, 'placement:resource_providers:create', admin)).toBe(true);
    expect(allowed(secure, 'placement:resource_providers:create', service)).toBe(true);
    expect(allowed(secure, 'placement:resource_providers:create', member)).toBe(false);
    expect(allowed(secure, 'placement:resource_providers:list', reader)).toBe(false);
  });

  it('keeps the reshaper to the service role', () => {
    expect(allowed(secure, 'placement:reshaper:reshape', service)).toBe(true);
    expect(allowed(secure, 'placement:reshaper:reshape', admin)).toBe(false);
  });

  it('shows total usages to a reader of that project only, and to admin and service', () => {
    expect(allowed(secure, 'placement:usages', reader, { project_id: 'p1' })).toBe(true);
    expect(allowed(secure, 'placement:usages', member, { project_id: 'p1' })).toBe(true);
    expect(allowed(secure, 'placement:usages', reader, { project_id: 'p2' })).toBe(false);
    expect(allowed(secure, 'placement:usages', admin, { project_id: 'p2' })).toBe(true);
    expect(allowed(secure, 'placement:usages', service, { project_id: 'p2' })).toBe(true);
  });

  it('refuses a system-scoped token on project-scoped rules, for the scope, before the check', () => {
    expect(decide(secure, 'placement:resource_providers:list', systemAdmin)).toEqual({ allowed: false, reason: 'scope' });
    expect(decide(secure, 'placement:resource_providers:list', member)).toEqual({ allowed: false, reason: 'rule' });
  });

  it('without scope enforcement, judges a system token by its roles alone', () => {
    const unscoped = new Enforcer(settings({ enforceNewDefaults: true, enforceScope: false }));
    expect(allowed(unscoped, 'placement:resource_providers:list', systemAdmin)).toBe(true);
    // project_reader_api has no scope types, so a scope mismatch never applies to it.
    expect(allowed(secure, 'project_reader_api', person(['reader'], { projectId: null, systemScope: true }), { project_id: null })).toBe(true);
  });

  it('denies a rule nobody registered', () => {
    expect(decide(secure, 'placement:nothing', admin)).toEqual({ allowed: false, reason: 'rule' });
  });
});

describe('legacy rules OR-ed in while new defaults are not enforced', () => {
  const legacy = new Enforcer(settings({ enforceNewDefaults: false }));
  const secure = new Enforcer(settings({ enforceNewDefaults: true }));

  it('adds the deprecated "role:admin" to each base rule that replaced it', () => {
    expect(allowed(legacy, 'placement:reshaper:reshape', admin)).toBe(true);
    expect(allowed(legacy, 'project_reader_api', admin, { project_id: 'elsewhere' })).toBe(true);
    expect(allowed(secure, 'project_reader_api', admin, { project_id: 'elsewhere' })).toBe(false);
  });

  it('renders the combined rule as oslo does', () => {
    expect(legacy.rules.get('service_api')).toEqual({ kind: 'or', checks: [{ kind: 'role', match: 'service' }, { kind: 'role', match: 'admin' }] });
    expect(secure.rules.get('service_api')).toEqual({ kind: 'role', match: 'service' });
    expect(legacy.rules.get('admin_api')).toEqual({ kind: 'role', match: 'admin' });
  });
});

describe('the open policy', () => {
  const open = new Enforcer(settings({ open: true }));

  it('allows any project-scoped caller every registered rule', () => {
    expect(allowed(open, 'placement:resource_providers:delete', person([]))).toBe(true);
    expect(allowed(open, 'placement:reshaper:reshape', person([]))).toBe(true);
  });

  it('keeps admin_api and still enforces scope', () => {
    expect(allowed(open, 'admin_api', person([]))).toBe(false);
    expect(decide(open, 'placement:traits:list', systemAdmin)).toEqual({ allowed: false, reason: 'scope' });
  });
});

describe('an operator policy file', () => {
  it('replaces a default entirely, without the legacy OR', () => {
    const enforcer = new Enforcer(settings({ file: { 'placement:traits:list': 'role:reader' } }));
    expect(allowed(enforcer, 'placement:traits:list', reader)).toBe(true);
    expect(allowed(enforcer, 'placement:traits:list', admin)).toBe(false);
    expect(allowed(enforcer, 'placement:traits:show', admin)).toBe(true);
  });

  it('changes every rule that refers to an overridden base rule', () => {
    const enforcer = new Enforcer(settings({ file: { admin_or_service_api: 'role:operator' } }));
    expect(allowed(enforcer, 'placement:resource_providers:list', person(['operator']))).toBe(true);
    expect(allowed(enforcer, 'placement:resource_providers:list', admin)).toBe(false);
  });

  it('cannot change the scope a rule serves', () => {
    const enforcer = new Enforcer(settings({ file: { 'placement:traits:list': '@' } }));
    expect(decide(enforcer, 'placement:traits:list', systemAdmin)).toEqual({ allowed: false, reason: 'scope' });
  });

  it('an override of the deprecated name carries over to the rules that replaced it', () => {
    const enforcer = new Enforcer(settings({ file: { 'rule:admin_api': 'role:operator' } }));
    expect(allowed(enforcer, 'placement:reshaper:reshape', person(['operator']))).toBe(true);
    expect(allowed(enforcer, 'placement:reshaper:reshape', service)).toBe(false);
  });

  it('but not when it only aliases the new rule, as generated sample files do', () => {
    const enforcer = new Enforcer(settings({ enforceNewDefaults: true, file: { 'rule:admin_api': 'rule:service_api' } }));
    expect(allowed(enforcer, 'placement:reshaper:reshape', service)).toBe(true);
    expect(enforcer.rules.get('service_api')).toEqual({ kind: 'role', match: 'service' });
  });

  it('sends references to undefined rules to its "default" rule, or denies them', () => {
    const withDefault = new Enforcer(settings({ file: { 'placement:traits:list': 'rule:custom', default: 'role:member' } }));
    expect(allowed(withDefault, 'placement:traits:list', member)).toBe(true);
    const without = new Enforcer(settings({ file: { 'placement:traits:list': 'rule:custom' } }));
    expect(allowed(without, 'placement:traits:list', admin)).toBe(false);
    expect(without.undefinedReferences).toEqual(['placement:traits:list']);
  });
});
