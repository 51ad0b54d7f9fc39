import { ErrorCode } from '#domain/index.js';

/** An HTTP error in upstream's terms; rendered by render-error.ts. */
export class PlacementError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: ErrorCode = ErrorCode.UNDEFINED,
    readonly headers: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export const httpBadRequest = (detail: string, code?: ErrorCode) => new PlacementError(400, detail, code);
export const httpNotFound = (detail = '') => new PlacementError(404, detail);
