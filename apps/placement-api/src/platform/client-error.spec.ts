import type { Socket } from 'node:net';
import { placementClientError } from './client-error.js';

function fakeSocket() {
  const written: string[] = [];
  const socket = { destroyed: false, writable: true, end: (data: string) => { written.push(data); } };
  return { socket: socket as unknown as Socket, written };
}
const parseError = (code: string) => Object.assign(new Error('parse'), { code });

describe('client errors from the HTTP parser', () => {
  it("answers a non-integer Content-Length in upstream's error shape", () => {
    const { socket, written } = fakeSocket();
    placementClientError(parseError('HPE_INVALID_CONTENT_LENGTH'), socket);
    const [head, body] = written[0].split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1.1 400 Bad Request\r\n/);
    expect(head).toContain('content-type: application/json');
    expect(head).toContain(`content-length: ${Buffer.byteLength(body)}`);
    const error = JSON.parse(body).errors[0];
    expect(error).toMatchObject({ status: 400, title: 'Bad Request' });
    expect(error.detail).toContain('content-length header must be an integer');
    expect(head).toContain(`x-openstack-request-id: ${error.request_id}`);
  });

  it('answers every other parse failure in the same shape, and leaves dead sockets alone', () => {
    const { socket, written } = fakeSocket();
    placementClientError(parseError('HPE_HEADER_OVERFLOW'), socket);
    placementClientError(Object.assign(parseError('HPE_INVALID_METHOD'), { reason: 'Invalid method encountered' }), socket);
    expect(written[0]).toMatch(/^HTTP\/1.1 431 Request Header Fields Too Large\r\n/);
    expect(JSON.parse(written[0].split('\r\n\r\n')[1]).errors[0]).toMatchObject({ status: 431, title: 'Request Header Fields Too Large' });
    expect(written[1]).toMatch(/^HTTP\/1.1 400 Bad Request\r\n/);
    expect(JSON.parse(written[1].split('\r\n\r\n')[1]).errors[0].detail).toContain('Invalid method encountered');
    const reset = fakeSocket();
    placementClientError(parseError('ECONNRESET'), reset.socket);
    expect(reset.written).toEqual([]);
  });
});
