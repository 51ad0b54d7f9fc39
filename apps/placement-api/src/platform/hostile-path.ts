import type { FastifyRequest } from 'fastify';
import { hostileString } from './hostile-json.js';
import { PlacementError } from './placement-error.js';

const READS = new Set(['GET', 'HEAD', 'DELETE']);

/**
 * A path segment PostgreSQL cannot hold (NUL) names nothing that can exist: reading or deleting
 * it is a 404, as upstream answers a uuid or name it does not know; writing to it is a 400.
 * Checked once here so no route sends such a value to SQL.
 */
export function hostilePathParameter(request: FastifyRequest): PlacementError | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  for (const value of Object.values(params)) {
    const reason = typeof value === 'string' ? hostileString(value) : undefined;
    if (!reason) continue;
    return READS.has(request.method)
      ? new PlacementError(404, `No resource found: ${reason.replace('a string holds', 'a path segment holds')}.`)
      : new PlacementError(400, `Invalid input: ${reason.replace('a string holds', 'a path segment holds')}.`);
  }
  return undefined;
}
