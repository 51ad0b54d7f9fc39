import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';

const PLAIN_STATUS: Record<string, string> = {
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
};

/**
 * Requests Node's HTTP parser refuses never reach a route. Upstream answers a non-integer
 * Content-Length in its own error shape (webob checks it); anything else gets Node's bare reply.
 */
export function placementClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  if (error.code !== 'HPE_INVALID_CONTENT_LENGTH') {
    socket.end(`HTTP/1.1 ${PLAIN_STATUS[error.code ?? ''] ?? '400 Bad Request'}\r\nconnection: close\r\n\r\n`);
    return;
  }
  const requestId = `req-${randomUUID()}`;
  const body = JSON.stringify({
    errors: [{
      status: 400, title: 'Bad Request', request_id: requestId,
      detail: 'The server could not comply with the request since it is either malformed or otherwise incorrect.\n\n content-length header must be an integer  ',
    }],
  });
  socket.end(
    'HTTP/1.1 400 Bad Request\r\nopenstack-api-version: placement 1.0\r\nvary: openstack-api-version\r\n'
    + `x-openstack-request-id: ${requestId}\r\ncontent-type: application/json\r\n`
    + `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
