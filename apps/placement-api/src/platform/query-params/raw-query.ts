import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** The query string exactly as received, for parseWebobQuery to read as upstream does. */
export const RawQuery = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const url = ctx.switchToHttp().getRequest<FastifyRequest>().url;
  const at = url.indexOf('?');
  return at >= 0 ? url.slice(at + 1) : '';
});
