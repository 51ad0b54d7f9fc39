import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendUnauthorized } from '../unauthorized.js';
import { AuthStrategy, Identity } from '#platform/auth/identity.js';

/**
 * upstream's noauth2: `X-Auth-Token: user[:project]`, roles from X-Roles (or admin for the
 * user `admin`), `OpenStack-System-Scope: all` for a system-scoped token, X-Project-Id wins.
 */
function noauthIdentity(request: FastifyRequest): Identity | null {
  const token = request.headers['x-auth-token'];
  if (typeof token !== 'string' || token === '') return null;
  const [userId, tokenProject] = token.includes(':') ? token.split(':', 2) : [token, token];
  const rolesHeader = request.headers['x-roles'];
  const roles = typeof rolesHeader === 'string'
    ? rolesHeader.split(',').map((r) => r.trim()).filter(Boolean)
    : userId === 'admin' ? ['admin'] : [];
  const systemScope = String(request.headers['openstack-system-scope'] ?? '').toLowerCase() === 'all';
  const projectHeader = request.headers['x-project-id'];
  const projectId = systemScope ? null : typeof projectHeader === 'string' ? projectHeader : tokenProject;
  return { userId, projectId, roles, systemScope };
}

/** Development and tests: the headers are trusted, nothing is checked. */
export class Noauth2Strategy implements AuthStrategy {
  async authenticate(request: FastifyRequest): Promise<Identity | 'unauthorized'> {
    return noauthIdentity(request) ?? 'unauthorized';
  }

  sendUnauthorized(reply: FastifyReply): FastifyReply {
    return sendUnauthorized(reply);
  }
}
