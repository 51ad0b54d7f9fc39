import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthStrategy, Identity, IdentityServiceUnavailable } from '#platform/auth/identity.js';
import { KeystoneClient } from '#platform/auth/keystone-client.js';
import { sendKeystoneUnauthorized } from './keystone-replies.js';
import { KeystoneSettings } from '#platform/auth/keystone-settings.js';
import { identityOf, KeystoneToken } from '#platform/auth/keystone-token.js';
import { ConcurrencyLimit } from './concurrency-limit.js';
import { ServiceTokenSource } from '#platform/auth/service-token.js';
import { TokenCache } from './token-cache.js';

/** Fernet and JWS tokens are printable ASCII; anything else cannot be one, so Keystone is not asked. */
const TOKEN_SHAPE = /^[\x21-\x7e]{1,8192}$/;

/**
 * A token Keystone refused is refused again without asking for this long, so a client retrying
 * a dead token is not a request at Keystone each time. Short, because a refusal can be wrong for
 * a moment (a new signing key not yet on every Keystone node) and a valid token must not stay
 * locked out for long.
 */
export const INVALID_TOKEN_CACHE_MS = 10_000;

/** Validations at Keystone at once; the others wait their turn (see ConcurrencyLimit). */
export const MAX_VALIDATIONS_IN_FLIGHT = 16;

/** What the strategy asks of Keystone: a fake stands in for it in specs. */
export type KeystoneCalls = Pick<KeystoneClient, 'issueServiceToken' | 'validate'>;

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  // keystonemiddleware strips the token (bug 1689468: clients sent trailing newlines).
  return typeof value === 'string' ? value.trim() : undefined;
};

/**
 * keystonemiddleware's auth_token: the X-Auth-Token (and an X-Service-Token, when a service
 * forwards one) must be a live Keystone v3 token; who it names is the caller.
 */
export class KeystoneStrategy implements AuthStrategy {
  private readonly valid: TokenCache<KeystoneToken>;
  private readonly invalid: TokenCache<true>;
  private readonly serviceTokens: ServiceTokenSource;
  private readonly inFlight = new Map<string, Promise<KeystoneToken | null>>();
  private readonly validations = new ConcurrencyLimit(MAX_VALIDATIONS_IN_FLIGHT);

  constructor(
    private readonly settings: KeystoneSettings,
    private readonly client: KeystoneCalls = new KeystoneClient(settings),
    private readonly clock: () => number = Date.now,
  ) {
    const ttlMs = settings.cacheTimeSeconds * 1000;
    this.valid = new TokenCache(settings.cacheSize, ttlMs);
    this.invalid = new TokenCache(settings.cacheSize, Math.min(INVALID_TOKEN_CACHE_MS, ttlMs));
    this.serviceTokens = new ServiceTokenSource(() => this.client.issueServiceToken(), clock);
  }

  async authenticate(request: FastifyRequest): Promise<Identity | 'unauthorized'> {
    const userToken = header(request, 'x-auth-token');
    if (!userToken) return 'unauthorized';
    const user = await this.verify(userToken);
    if (!user) return 'unauthorized';
    // A service token that does not validate makes the whole request unauthenticated, as upstream.
    const serviceToken = header(request, 'x-service-token');
    if (serviceToken === undefined) return identityOf(user);
    const service = await this.verify(serviceToken);
    return service ? identityOf(user, service) : 'unauthorized';
  }

  sendUnauthorized(reply: FastifyReply): FastifyReply {
    return sendKeystoneUnauthorized(reply, this.settings.wwwAuthenticateUri ?? this.settings.authUrl);
  }

  /** The token's data while it lives; null for a token Keystone does not vouch for. */
  async verify(token: string): Promise<KeystoneToken | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const now = this.clock();
    const cached = this.valid.get(token, now);
    if (cached) return cached;
    if (this.invalid.get(token, now)) return null;
    // Concurrent requests with one token (a client's burst) share one validation.
    let pending = this.inFlight.get(token);
    if (!pending) {
      pending = this.validate(token).finally(() => this.inFlight.delete(token));
      this.inFlight.set(token, pending);
    }
    const validated = await pending;
    const then = this.clock();
    // keystonemiddleware: "0 seconds of validity means it is invalid right now".
    if (!validated || validated.expiresAt <= then) {
      this.invalid.set(token, true, then);
      return null;
    }
    this.valid.set(token, validated, then, validated.expiresAt);
    return validated;
  }

  private async validate(token: string): Promise<KeystoneToken | null> {
    // A refused service token is renewed once (revoked, or Keystone's keys rotated past it).
    for (let attempt = 1; ; attempt++) {
      const service = await this.serviceTokens.get();
      const result = await this.validations.run(() => this.client.validate(token, service.token));
      if (result.kind === 'valid') return result.token;
      if (result.kind === 'invalid') return null;
      this.serviceTokens.invalidate(service);
      if (attempt === 2) {
        throw new IdentityServiceUnavailable('Keystone refused the service token right after issuing it; check the service user\'s roles');
      }
    }
  }
}
