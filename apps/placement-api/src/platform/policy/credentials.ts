import { Credentials } from './evaluate.js';

export interface PolicyIdentity {
  readonly userId: string | null;
  readonly projectId: string | null;
  readonly roles: readonly string[];
  readonly systemScope: boolean;
  /** Set for a domain-scoped Keystone token (oslo.policy's scope check then says 'domain'). */
  readonly domainId?: string | null;
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
    service_user_id: null,
    service_user_domain_id: null,
    service_project_id: null,
    service_project_domain_id: null,
    service_roles: [],
  };
}
