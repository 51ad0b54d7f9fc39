import { credentialsOf, PolicyIdentity } from './credentials.js';
import { Enforcer } from './enforcer.js';
import { parsePolicyDocument } from '#platform/policy/policy-file.js';

const member: PolicyIdentity = { userId: 'u1', projectId: 'p1', roles: ['member', 'reader'], systemScope: false };
const nova = { userId: 'nova-user', userDomainId: 'default', projectId: 'service-project', projectDomainId: 'default', roles: ['service'] };

describe('a service token in the policy credentials (oslo.context service_*)', () => {
  it('fills service_user_id, service_roles and the rest from the service part only', () => {
    expect(credentialsOf(member)).toMatchObject({
      service_user_id: null, service_user_domain_id: null, service_project_id: null, service_project_domain_id: null, service_roles: [],
    });
    expect(credentialsOf({ ...member, service: nova })).toMatchObject({
      user_id: 'u1', roles: ['member', 'reader'],
      service_user_id: 'nova-user', service_user_domain_id: 'default', service_project_id: 'service-project',
      service_project_domain_id: 'default', service_roles: ['service'],
    });
  });

  it('lets a rule on service_roles pass only when a service token with that role came along', () => {
    const enforcer = new Enforcer({
      enforceNewDefaults: true, enforceScope: true, open: false,
      overrides: parsePolicyDocument(JSON.stringify({ 'placement:resource_providers:list': 'service_roles:service' })),
    });
    const allowed = (who: PolicyIdentity) => enforcer.authorize('placement:resource_providers:list', { project_id: 'p1' }, credentialsOf(who)).allowed;
    expect(allowed(member)).toBe(false);
    expect(allowed({ ...member, roles: ['service'] })).toBe(false); // the user's own roles are not the service's
    expect(allowed({ ...member, service: { ...nova, roles: ['reader'] } })).toBe(false);
    expect(allowed({ ...member, service: nova })).toBe(true);
  });
});
