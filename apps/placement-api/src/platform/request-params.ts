import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Version } from './microversion.js';
import { requestState } from './request-state.js';
import { decodeUtf8Body } from './utf8-body.js';
import type { Caller } from '#placement/shared/caller.js';
import type { Access } from './policy/access.js';

const request = (ctx: ExecutionContext) => ctx.switchToHttp().getRequest<FastifyRequest>();

/** The negotiated microversion. */
export const Ver = createParamDecorator((_: unknown, ctx: ExecutionContext): Version => requestState(request(ctx)).version!);

/** Who is asking (authenticated by the pipeline). */
export const Who = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => requestState(request(ctx)).caller!);

/** The judgement of a route checked against its data (route-policies.ts 'data'). */
export const Judged = createParamDecorator((_: unknown, ctx: ExecutionContext): Access => {
  const access = requestState(request(ctx)).access;
  if (!access) throw new Error('@Judged() on a route whose policy is not judged against its data');
  return access;
});

/** The raw request body as text (strict UTF-8), validated later against the microversion's schema. */
export const RawBody = createParamDecorator((_: unknown, ctx: ExecutionContext): string | undefined => {
  const body = request(ctx).body;
  return Buffer.isBuffer(body) ? decodeUtf8Body(body) : undefined;
});

/** What follows the '?' of a request's URL ('' without one). */
function queryStringOf(ctx: ExecutionContext): string {
  const url = request(ctx).url;
  const at = url.indexOf('?');
  return at >= 0 ? url.slice(at + 1) : '';
}

/** The query string as it came: a key for what is parsed from it. */
export const QueryString = createParamDecorator((_: unknown, ctx: ExecutionContext): string => queryStringOf(ctx));

/** The query string as upstream sees it: every key with all of its values. */
export const QueryParams = createParamDecorator((_: unknown, ctx: ExecutionContext): URLSearchParams => new URLSearchParams(queryStringOf(ctx)));

/** Absolute URL base for Location headers, as webob builds it from the Host header. */
export const BaseUrl = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const req = request(ctx);
  return `${req.protocol}://${req.headers.host ?? 'localhost'}`;
});
