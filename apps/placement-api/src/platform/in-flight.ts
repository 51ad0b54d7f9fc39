import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const answering = new WeakMap<Socket, ServerResponse>();

/** Remembers the answer being produced on a connection until it has been written. */
export function trackAnswer(socket: Socket, response: ServerResponse): void {
  answering.set(socket, response);
  response.once('close', () => {
    if (answering.get(socket) === response) answering.delete(socket);
  });
}

/**
 * Runs `then` once the connection's answer in progress, if any, has been written. Bytes after a
 * request on a keep-alive connection are parsed as the next request while the first is still
 * being handled; if that parse fails, its error must follow the first answer, never replace it
 * (a write applied but answered 400 is an answer contradicting what was written).
 */
export function afterAnswerInFlight(socket: Socket, then: () => void): void {
  const response = answering.get(socket);
  if (!response || response.writableFinished || response.destroyed) return then();
  response.once('close', then);
}
