import { Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '#platform/config.js';
import { requestState } from '../request-state.js';
import { AuthStrategy, Identity, IdentityServiceUnavailable } from '#platform/auth/identity.js';
import { sendKeystoneUnavailable } from './keystone-replies.js';
import { KeystoneStrategy } from './keystone-strategy.js';
import { Noauth2Strategy } from './noauth.js';

// Nest's logger: the app's JSON log once the app exists, as the policy guard logs.
const logger = new Logger('auth');

export function createAuthStrategy(config: Pick<AppConfig, 'authStrategy' | 'keystone'>): AuthStrategy {
  if (config.authStrategy === 'noauth2') return new Noauth2Strategy();
  if (!config.keystone) throw new Error('PLACEMENT_AUTH_STRATEGY=keystone without its PLACEMENT_KEYSTONE_* settings');
  return new KeystoneStrategy(config.keystone);
}

/**
 * The caller of `request`, or null once the strategy's 401 (or keystonemiddleware's 503,
 * when the identity service cannot be asked) has been sent.
 */
export async function authenticateRequest(strategy: AuthStrategy, request: FastifyRequest, reply: FastifyReply): Promise<Identity | null> {
  try {
    const identity = await strategy.authenticate(request);
    if (identity !== 'unauthorized') return identity;
    strategy.sendUnauthorized(reply);
    return null;
  } catch (error) {
    if (!(error instanceof IdentityServiceUnavailable)) throw error;
    logger.error(`Unable to validate token for ${requestState(request).requestId}: ${error.message}`);
    sendKeystoneUnavailable(reply);
    return null;
  }
}

/**
 * Whether the token a request came with still names a caller: false once it expired or was
 * revoked (as far as the strategy's cache lets it know), or when it cannot be checked at all.
 */
export async function stillAuthenticated(strategy: AuthStrategy, request: FastifyRequest): Promise<boolean> {
  try {
    return (await strategy.authenticate(request)) !== 'unauthorized';
  } catch (error) {
    if (error instanceof IdentityServiceUnavailable) return false;
    throw error;
  }
}
