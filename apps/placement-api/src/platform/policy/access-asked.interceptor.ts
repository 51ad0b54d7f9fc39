import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { requestState } from '../request-state.js';
import { notAllowed } from './access.js';

/**
 * Fail closed for routes judged against their data: a handler that answered without asking its
 * Access whether the caller may see what it read gets a 403 instead of its answer.
 */
@Injectable()
export class AccessAskedInterceptor implements NestInterceptor {
  private readonly logger = new Logger('policy');

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const access = requestState(request).access;
    if (!access) return next.handle();
    return next.handle().pipe(map((answer) => {
      if (!access.consulted) {
        this.logger.error(`${request.method} ${request.routeOptions.url} answered without judging its data against ${access.rule}; refused`);
        throw notAllowed(access.rule);
      }
      return answer;
    }));
  }
}
