import type { FastifyReply, FastifyRequest } from 'fastify';

/** Who a request comes from, as the policy engine and the audit trail need it. */
export interface Identity {
  readonly userId: string;
  readonly projectId: string | null;
  readonly roles: readonly string[];
  readonly systemScope: boolean;
  /** Set by keystone for a domain-scoped token; noauth2 has no domains. */
  readonly domainId?: string | null;
  readonly userDomainId?: string | null;
  readonly projectDomainId?: string | null;
  /** Who forwarded the request, from a valid X-Service-Token (keystone only): policy's service_* values. */
  readonly service?: ServiceIdentity;
}

/** The holder of an X-Service-Token, as keystonemiddleware passes it on (X-Service-User-Id, X-Service-Roles, …). */
export interface ServiceIdentity {
  readonly userId: string;
  readonly userDomainId: string | null;
  readonly projectId: string | null;
  readonly projectDomainId: string | null;
  readonly roles: readonly string[];
}

/** One way of telling who sent a request (PLACEMENT_AUTH_STRATEGY). */
export interface AuthStrategy {
  /**
   * The caller, or 'unauthorized' when the token is missing, invalid or expired.
   * Throws IdentityServiceUnavailable when the identity service cannot answer.
   */
  authenticate(request: FastifyRequest): Promise<Identity | 'unauthorized'>;
  /** The 401 the middleware upstream uses with this strategy sends. */
  sendUnauthorized(reply: FastifyReply): FastifyReply;
}

/** keystonemiddleware's ServiceError: the token could not be checked at all (503, not 401). */
export class IdentityServiceUnavailable extends Error {
  override readonly name = 'IdentityServiceUnavailable';
}
