import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '#domain/index.js';
import { AcknowledgedWrites } from '#placement/shared/acknowledged-writes.js';
import { databaseFailure, writtenButUnanswered } from './dependency-errors.js';
import { requestState } from './request-state.js';
import { PlacementError } from './placement-error.js';
import { bodyTooLarge, discardBody } from './oversized-body.js';
import { sendError } from './render-error.js';
import { RouteTable } from './route-table.js';

const KIND_STATUS = { bad_request: 400, not_found: 404, conflict: 409 } as const;

/** Every error leaves in upstream's shape; nothing unexpected leaks as anything but a 500. */
@Catch()
export class PlacementExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('errors');

  constructor(private readonly routes: RouteTable, private readonly acknowledged: AcknowledgedWrites) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const error = this.toPlacementError(exception, request);
    // A chunked body that outgrew the limit while Fastify read it: read the rest away before answering
    // (a declared length over the limit was read away before parsing, in the pipeline).
    if ((exception as { code?: unknown })?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      void discardBody(request.raw).then(() => sendError(request, reply.header('connection', 'close'), error));
    } else {
      sendError(request, reply, error);
    }
  }

  private toPlacementError(exception: unknown, request: FastifyRequest): PlacementError {
    if (exception instanceof PlacementError) return exception;
    if ((exception as { code?: unknown })?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return bodyTooLarge();
    if (exception instanceof DomainError) return new PlacementError(KIND_STATUS[exception.kind], exception.detail, exception.code);
    if (exception instanceof NotFoundException) {
      const methods = this.routes.methodsFor(request.url.split('?')[0]);
      if (methods && !methods.includes(request.method)) {
        return new PlacementError(405, '', undefined, { allow: methods.sort().join(', ') });
      }
      return new PlacementError(404, '');
    }
    if (exception instanceof HttpException) return new PlacementError(exception.getStatus(), exception.message);
    // The client hung up mid-body (Node's "aborted", ECONNRESET): nobody to answer, and no database failure.
    if (request.raw.destroyed && (exception as Error)?.message === 'aborted') return new PlacementError(400, 'The client closed the connection.');
    const database = databaseFailure(exception);
    if (database) {
      if (database.status === 503) this.logger.warn(`database unavailable: ${exception instanceof Error ? exception.message : String(exception)}`);
      // Failing after its write committed (reading the result back), a request says the write stands.
      if (database.status === 503 && this.acknowledged.has(requestState(request).requestId)) return writtenButUnanswered();
      return database;
    }
    this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    return new PlacementError(500, 'An unexpected error occurred.');
  }
}
