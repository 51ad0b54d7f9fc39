import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CorsConfig } from '#platform/config.js';

const SIMPLE_HEADERS = ['cache-control', 'content-language', 'content-type', 'expires', 'last-modified', 'pragma'];

/**
 * oslo.middleware's CORS: a pre-flight is answered 200 here whatever the origin, with the
 * allow headers only when the origin and requested headers are allowed. Returns true when answered.
 */
export function handleCors(config: CorsConfig, request: FastifyRequest, reply: FastifyReply): boolean {
  const origin = request.headers.origin;
  const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'];
  if (!origin) return false;
  const allowed = config.allowedOrigins.includes(origin) || config.allowedOrigins.includes('*');
  if (preflight) {
    const asked = String(request.headers['access-control-request-headers'] ?? '')
      .split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
    const permitted = new Set([...SIMPLE_HEADERS, ...config.allowHeaders.map((h) => h.toLowerCase())]);
    reply.header('vary', 'Origin');
    if (allowed && asked.every((h) => permitted.has(h))) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-allow-credentials', 'true');
      reply.header('access-control-allow-methods', String(request.headers['access-control-request-method']));
      if (asked.length > 0) reply.header('access-control-allow-headers', asked.join(','));
      if (config.maxAge !== undefined) reply.header('access-control-max-age', String(config.maxAge));
    }
    reply.code(200).send();
    return true;
  }
  if (allowed) {
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
    reply.header('vary', 'Origin');
    if (config.exposeHeaders && config.exposeHeaders.length > 0) reply.header('access-control-expose-headers', config.exposeHeaders.join(','));
  }
  return false;
}
