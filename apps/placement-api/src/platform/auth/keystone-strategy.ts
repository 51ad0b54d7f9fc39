import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthStrategy, Identity, IdentityServiceUnavailable } from './identity.js';
import { KeystoneClient } from './keystone-client.js';
import { sendKeystoneUnauthorized } from './keystone-replies.js';
import { KeystoneSettings } from './keystone-settings.js';
import { identityOf, KeystoneToken } from './keystone-token.js';
import { ServiceTokenSource } from './service-token.js';
import { TokenCache } from './token-cache.js';

/** Fernet and JWS tokens are printable ASCII; anything else cannot be one, so Keystone is not asked. */
const TOKEN_SHAPE = /^[\x21-\x7e]{1,8192}$/;

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
  private readonly cache: TokenCache;
  private readonly serviceTokens: ServiceTokenSource;
  private readonly inFlight = new Map<string, Promise<KeystoneToken | null>>();

  constructor(
    private readonly settings: KeystoneSettings,
    private readonly client = new KeystoneClient(settings),
    private readonly clock: () => number = Date.now,
  ) {
    this.cache = new TokenCache(settings.cacheSize);
    this.serviceTokens = new ServiceTokenSource(() => this.client.issueServiceToken(), clock);
  }

  async authenticate(request: FastifyRequest): Promise<Identity | 'unauthorized'> {
    const userToken = header(request, 'x-auth-token');
    if (!userToken) return 'unauthorized';
    const user = await this.verify(userToken);
    if (!user) return 'unauthorized';
    // A service token that does not validate makes the whole request unauthenticated, as upstream.
    const serviceToken = header(request, 'x-service-token');
    if (serviceToken !== undefined && !(await this.verify(serviceToken))) return 'unauthorized';
    return identityOf(user);
  }

  sendUnauthorized(reply: FastifyReply): FastifyReply {
    return sendKeystoneUnauthorized(reply, this.settings.wwwAuthenticateUri ?? this.settings.authUrl);
  }

  /** The token's data while it lives; null for a token Keystone does not vouch for. */
  async verify(token: string): Promise<KeystoneToken | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const cached = this.cache.get(token, this.clock());
    if (cached) return cached;
    // Concurrent requests with one token (a client's burst) share one validation.
    let pending = this.inFlight.get(token);
    if (!pending) {
      pending = this.validate(token).finally(() => this.inFlight.delete(token));
      this.inFlight.set(token, pending);
    }
    const validated = await pending;
    // keystonemiddleware: "0 seconds of validity means it is invalid right now".
    if (!validated || validated.expiresAt <= this.clock()) return null;
    this.cache.set(token, validated);
    return validated;
  }

  private async validate(token: string): Promise<KeystoneToken | null> {
    // A refused service token is renewed once (revoked, or Keystone's keys rotated past it).
    for (let attempt = 1; ; attempt++) {
      const service = await this.serviceTokens.get();
      const result = await this.client.validate(token, service.token);
      if (result.kind === 'valid') return result.token;
      if (result.kind === 'invalid') return null;
      this.serviceTokens.invalidate(service);
      if (attempt === 2) {
        throw new IdentityServiceUnavailable('Keystone refused the service token right after issuing it; check the service user\'s roles');
      }
    }
  }
}
