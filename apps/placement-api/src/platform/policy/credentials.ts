import type { ServiceIdentity } from '#platform/auth/identity.js';
import { Credentials } from '#platform/policy/evaluate.js';

export interface PolicyIdentity {
  readonly userId: string | null;
  readonly projectId: string | null;
  readonly roles: readonly string[];
  readonly systemScope: boolean;
  /** Set for a domain-scoped Keystone token (oslo.policy's scope check then says 'domain'). */
  readonly domainId?: string | null;
  /** The service whose X-Service-Token came with the request, if one did. */
  readonly service?: ServiceIdentity;
}

/**
 * oslo.context's to_policy_values() for a request context, every key present, so that a
 * generic check such as `domain_id:None` behaves as it does upstream.
 */
export function credentialsOf(identity: PolicyIdentity): Credentials {
  return {
    user_id: identity.userId,
    user_domain_id: null,
    system_scope: identity.systemScope ? 'all' : null,
    domain_id: identity.domainId ?? null,
    project_id: identity.projectId,
    project_domain_id: null,
    roles: [...identity.roles],
    is_admin_project: true,
    // oslo.context fills these from keystonemiddleware's X-Service-* headers: None and [] without a service token.
    service_user_id: identity.service?.userId ?? null,
    service_user_domain_id: identity.service?.userDomainId ?? null,
    service_project_id: identity.service?.projectId ?? null,
    service_project_domain_id: identity.service?.projectDomainId ?? null,
    service_roles: [...(identity.service?.roles ?? [])],
  };
}
