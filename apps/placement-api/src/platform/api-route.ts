import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { PlacementError } from './placement-error.js';
import { requestState } from './request-state.js';

export interface ApiRouteOptions {
  /** First microversion serving this route; below it the route answers `belowStatus`. */
  readonly since?: string;
  readonly until?: string;
  /** 404 for a route added later, 405 for a method added later to an existing route. */
  readonly belowStatus?: 404 | 405;
  /** GETs: refuse an Accept header that excludes application/json (406). */
  readonly produces?: boolean;
  /** PUT/POST: require an application/json body (415 otherwise); a string names another media type (PATCH's merge patch). */
  readonly consumes?: boolean | string;
}

const API_ROUTE = 'placement:api-route';
export const ApiRoute = (options: ApiRouteOptions) => SetMetadata(API_ROUTE, options);

/** Whether an Accept header admits application/json (absent: yes), as upstream's check_accept. */
export function acceptsJson(accept: string | undefined): boolean {
  if (!accept) return true;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return ['application/json', 'application/*', '*/*'].includes(type.trim()) && (!q || Number(q.slice(2)) > 0);
  });
}

/** upstream's version_handler, check_accept and require_content, in that order. */
@Injectable()
export class ApiRouteGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const options = this.reflector.get<ApiRouteOptions>(API_ROUTE, context.getHandler());
    if (!options) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const version = requestState(request).version;
    if (version && !version.matches(options.since, options.until)) {
      throw new PlacementError(options.belowStatus ?? 404, '');
    }
    if (options.produces && !acceptsJson(request.headers.accept)) {
      throw new PlacementError(406, 'Only application/json is provided');
    }
    if (options.consumes) {
      const wanted = typeof options.consumes === 'string' ? options.consumes : 'application/json';
      const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (type !== wanted) {
        throw new PlacementError(415, `The media type ${type || 'None'} is not supported, use ${wanted}`);
      }
    }
    return true;
  }
}
