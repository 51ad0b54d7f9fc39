import { ErrorCode } from './error-codes.js';

/** What went wrong, in domain terms; the HTTP layer maps the kind to a status. */
export type DomainErrorKind = 'bad_request' | 'not_found' | 'conflict';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly detail: string,
    readonly code: ErrorCode = ErrorCode.UNDEFINED,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, code?: ErrorCode) => new DomainError('bad_request', detail, code);
export const notFound = (detail: string, code?: ErrorCode) => new DomainError('not_found', detail, code);
export const conflict = (detail: string, code?: ErrorCode) => new DomainError('conflict', detail, code);
