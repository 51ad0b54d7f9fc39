import { Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../render-error.js';
import { requestState } from '../request-state.js';
import { notAllowed } from './access.js';

const logger = new Logger('policy');

/**
 * Fail closed for routes judged against their data: an answer given without asking its Access
 * whether the caller may see what it read becomes a 403. Checked as the reply is sent (the
 * pipeline's onSend hook), so it holds for answers a handler sends itself too, and costs the
 * requests of every other route nothing (a Nest interceptor wrapped each of them in observables).
 * Errors pass: a handler may refuse before it has read anything to judge.
 */
export function refuseUnjudged(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  const access = requestState(request).access;
  if (!access || access.consulted || reply.statusCode >= 400) return payload;
  logger.error(`${request.method} ${request.routeOptions.url} answered without judging its data against ${access.rule}; refused`);
  // The answer's own length, if it set one, is not the error's.
  reply.removeHeader('content-length');
  return errorBody(request, reply, notAllowed(access.rule));
}
