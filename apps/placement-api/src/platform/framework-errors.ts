import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { negotiate } from './microversion.js';
import { PlacementError } from './placement-error.js';
import { sendError } from './render-error.js';
import { requestState } from './request-state.js';

/**
 * Fastify's router refuses some URLs before any hook runs (bad %-encoding, a path parameter
 * over maxParamLength): answered here in upstream's shape rather than Fastify's own, a 400 and
 * a 414 (webob's status for a URI it will not take).
 */
export function placementFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const state = requestState(request);
  state.requestId = `req-${randomUUID()}`;
  reply.header('x-openstack-request-id', state.requestId);
  const version = negotiate(request.headers['openstack-api-version'] as string | undefined);
  if ('major' in version) state.version = version;
  // The pipeline's onSend hook does not run for these: its headers are set here.
  reply.header('openstack-api-version', `placement ${state.version ?? '1.0'}`).header('vary', 'openstack-api-version');
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const detail = tooLong ? 'A path segment is longer than the server accepts.' : 'The path is not a valid URL: its %-encoding does not decode to UTF-8 text.';
  sendError(request, reply, new PlacementError(tooLong ? 414 : 400, detail));
}
