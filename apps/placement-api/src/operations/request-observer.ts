import type { FastifyInstance } from 'fastify';
import { requestState } from '../platform/request-state.js';
import { UNMATCHED_ROUTE } from './metrics.js';
import { Operations } from './operations.js';
import { isOperationsPath } from './operations-paths.js';

/**
 * One metric observation and one JSON log line per reply, including the replies the pipeline
 * sends itself (401, 406, CORS). Route labels are patterns (`/resource_providers/:uuid`), never
 * raw URLs. Callback hooks, no child loggers, no closures per request: this runs on every call.
 */
export function installRequestObserver(fastify: FastifyInstance, operations: Operations): void {
  const { metrics, logger } = operations;

  fastify.addHook('onSend', (_request, reply, payload, done) => {
    // While draining, each finished reply also closes its keep-alive connection, so the server
    // can close as soon as the last in-flight request is answered.
    if (operations.draining) reply.header('connection', 'close');
    done(null, payload);
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    const durationMs = reply.elapsedTime;
    metrics.observeRequest(request.method, route, status, durationMs / 1000);
    // Probes and scrapes arrive every few seconds; at info they would drown the API's lines.
    const level = status >= 500 ? 'error' : isOperationsPath(request.url) ? 'debug' : 'info';
    if (logger.isLevelEnabled(level)) {
      const { requestId, caller } = requestState(request);
      logger[level]({
        request_id: requestId || undefined,
        method: request.method,
        route,
        url: request.url,
        status,
        duration_ms: Math.round(durationMs * 1000) / 1000,
        user_id: caller?.userId ?? undefined,
        project_id: caller?.projectId ?? undefined,
      }, 'request');
    }
    done();
  });
}
