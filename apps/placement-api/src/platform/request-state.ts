import type { FastifyRequest } from 'fastify';
import type { Caller } from '#placement/shared/caller.js';
import type { ServiceIdentity } from '#platform/auth/identity.js';
import { Version } from './microversion.js';
import type { Access } from './policy/access.js';

/** What the pipeline learns about a request before a controller sees it. */
export interface RequestState {
  requestId: string;
  version?: Version;
  /** The service part rides on the caller because the policy guard passes the caller on to credentialsOf(). */
  caller?: Caller & { readonly service?: ServiceIdentity };
  systemScope?: boolean;
  /** A domain-scoped Keystone token's domain: its scope is then neither system nor project. */
  domainId?: string | null;
  /**
   * Asks the auth strategy again whether the request's token still holds (expired, revoked): for
   * answers that outlive the request's start, the feed's event streams.
   */
  stillAuthenticated?: () => Promise<boolean>;
  /** For a route judged against its data: what its handler must ask (policy/access.ts). */
  access?: Access;
}

const STATE = Symbol('placement');

export function requestState(request: FastifyRequest): RequestState {
  const holder = request as unknown as { [STATE]?: RequestState };
  return (holder[STATE] ??= { requestId: '' });
}
