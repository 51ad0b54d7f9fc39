import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { rawErrorAnswer } from './client-error.js';

/**
 * Node hands CONNECT requests to a 'connect' listener and, with none, closes the connection
 * without a word. This is no proxy: CONNECT is a method no resource allows, a 405 like any other.
 */
export function refuseConnect(server: Server): void {
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => undefined);
    socket.end(rawErrorAnswer(405, 'The method CONNECT is not allowed for this resource.'));
  });
}
