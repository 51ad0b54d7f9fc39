import type { FastifyInstance } from 'fastify';
import { Operations } from './operations.js';

/**
 * SIGTERM's order: stop accepting connections, let in-flight requests finish (each reply then
 * closes its connection), then `release` what the requests used (Nest, the database pool).
 * Nothing waits past `graceMs`: a request still running then has its connection cut, and a
 * release still pending is abandoned (the process is about to exit; PostgreSQL rolls back).
 * Resolves true when everything finished within the grace period.
 */
export async function closeGracefully(
  fastify: FastifyInstance, operations: Operations, graceMs: number, release: () => Promise<void>,
): Promise<boolean> {
  operations.startDraining();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((done) => (timer = setTimeout(() => done('expired'), graceMs)));
  try {
    const http = fastify.close();
    if ((await Promise.race([http, expired])) === 'expired') {
      operations.logger.warn({ grace_ms: graceMs }, 'requests still in flight at the end of the shutdown grace period; closing their connections');
      fastify.server.closeAllConnections();
      await http;
      void release().catch(() => undefined);
      return false;
    }
    if ((await Promise.race([release(), expired])) === 'expired') {
      operations.logger.warn({ grace_ms: graceMs }, 'the database was still busy at the end of the shutdown grace period; not waiting for it');
      return false;
    }
    return true;
  } finally {
    clearTimeout(timer);
  }
}
