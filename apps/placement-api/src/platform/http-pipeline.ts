import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppConfig } from '#platform/config.js';
import { isOperationsPath } from '../operations/operations-paths.js';
import { handleCors } from './cors.js';
import { MAX_VERSION, MIN_VERSION, negotiate } from './microversion.js';
import { authenticateRequest, createAuthStrategy, stillAuthenticated } from './auth/auth-strategy.js';
import { PlacementError } from './placement-error.js';
import { BODY_LIMIT_BYTES, bodyTooLarge, discardBody } from './oversized-body.js';
import { sendError } from './render-error.js';
import { trackAnswer } from './in-flight.js';
import { hostilePathParameter } from './hostile-path.js';
import { requestState } from './request-state.js';
import { refuseUnjudged } from './policy/access-asked.js';

/**
 * The middleware upstream stacks around its handlers, in its order:
 * request id, CORS, authentication, microversion, content-length sanity.
 */
export function installHttpPipeline(fastify: FastifyInstance, config: AppConfig): void {
  const auth = createAuthStrategy(config);
  // Bodies stay raw bytes: RawBody decodes them strictly, each handler validates JSON against its microversion's schema.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  fastify.addHook('onRequest', async (request, reply) => {
    const state = requestState(request);
    state.requestId = `req-${randomUUID()}`;
    reply.header('x-openstack-request-id', state.requestId);
    trackAnswer(request.raw.socket, request.raw, reply.raw);
    // Probes and scrapes: no token, no microversion (operations/operations-paths.ts).
    if (isOperationsPath(request.url)) return undefined;
    if (config.cors && handleCors(config.cors, request, reply)) return reply;

    const path = request.url.split('?')[0];
    // The version document is public: upstream's auth middlewares pass `/` through untouched.
    if (path !== '/' && path !== '') {
      const identity = await authenticateRequest(auth, request, reply);
      if (!identity) return reply;
      state.caller = {
        requestId: state.requestId, userId: identity.userId, projectId: identity.projectId, roles: identity.roles,
        ...(identity.service ? { service: identity.service } : {}),
      };
      state.systemScope = identity.systemScope;
      state.domainId = identity.domainId ?? null;
      state.stillAuthenticated = () => stillAuthenticated(auth, request);
    }

    const version = negotiate(request.headers['openstack-api-version'] as string | undefined);
    if (!('major' in version)) {
      const extra = version.status === 406 ? { max_version: MAX_VERSION.toString(), min_version: MIN_VERSION.toString() } : {};
      return sendError(request, reply, new PlacementError(version.status, version.detail, undefined, {}, extra));
    }
    state.version = version;

    const hostile = hostilePathParameter(request);
    if (hostile) return sendError(request, reply, hostile);

    const length = request.headers['content-length'];
    if (length !== undefined && Number(length) > 0 && !request.headers['content-type']) {
      return sendError(request, reply, new PlacementError(400, 'content-type header required when content-length > 0'));
    }
    return undefined;
  });

  // A declared length over the limit is refused before parsing, once the body has been read away.
  fastify.addHook('preParsing', async (request) => {
    if (Number(request.headers['content-length']) > BODY_LIMIT_BYTES) {
      await discardBody(request.raw);
      throw bodyTooLarge();
    }
    return undefined;
  });

  fastify.addHook('onSend', async (request, reply, answer) => {
    const payload = refuseUnjudged(request, reply, answer);
    const version = requestState(request).version;
    if (version) {
      reply.header('openstack-api-version', `placement ${version}`);
      reply.header('vary', 'openstack-api-version');
    }
    // Upstream (webob) sends a bare application/json, which clients compare exactly; Fastify adds a charset.
    if (reply.getHeader('content-type') === 'application/json; charset=utf-8') reply.header('content-type', 'application/json');
    return payload;
  });
}
