import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { afterAnswerInFlight } from './in-flight.js';
import { STATUS_TEXT } from './status-text.js';

const STATUS_BY_CODE: Record<string, number> = {
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_HEADER_OVERFLOW: 431,
};

/** The detail of each refusal, webob-style where upstream has one (webob checks Content-Length). */
function detailOf(error: Error & { code?: string; reason?: string }, status: number): string {
  if (error.code === 'HPE_INVALID_CONTENT_LENGTH') return 'content-length header must be an integer';
  if (status === 408) return 'The request was not received in time.';
  if (status === 431) return 'The request line and headers are larger than the server accepts.';
  return `The HTTP request could not be parsed: ${error.reason ?? error.code ?? error.message}.`;
}

/** A complete answer in upstream's error shape, written straight onto the socket. */
export function rawErrorAnswer(status: number, detail: string): string {
  const [title, explanation] = STATUS_TEXT[status] ?? ['Error', ''];
  const requestId = `req-${randomUUID()}`;
  const body = JSON.stringify({ errors: [{ status, title, detail: `${explanation}\n\n ${detail}  `, request_id: requestId }] });
  return `HTTP/1.1 ${status} ${title}\r\nopenstack-api-version: placement 1.0\r\nvary: openstack-api-version\r\n`
    + `x-openstack-request-id: ${requestId}\r\ncontent-type: application/json\r\n`
    + `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/**
 * Requests Node's HTTP parser refuses never reach a route: they are answered here, in upstream's
 * shape (no microversion could be read, so as 1.0: no `code`), after any answer still being
 * written on the same connection.
 */
export function placementClientError(error: Error & { code?: string; reason?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const status = STATUS_BY_CODE[error.code ?? ''] ?? 400;
  afterAnswerInFlight(socket, () => {
    if (socket.destroyed || !socket.writable) return;
    socket.end(rawErrorAnswer(status, detailOf(error, status)));
  });
}
