import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { LOOP_TURNS } from '#placement/candidates/search/loop-turns.js';

interface Exchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
}

const answering = new WeakMap<Socket, Exchange>();

/**
 * Remembers the request being answered on a connection until its answer has been written or
 * abandoned, and counts it meanwhile among the requests a long answer lets go first (loop-turns.ts).
 */
export function trackAnswer(socket: Socket, request: IncomingMessage, response: ServerResponse): void {
  answering.set(socket, { request, response });
  LOOP_TURNS.begin();
  response.once('close', () => {
    LOOP_TURNS.end();
    if (answering.get(socket)?.response === response) answering.delete(socket);
  });
}

/**
 * Runs `then` once the connection's answer in progress, if any, has been written. Bytes after a
 * request on a keep-alive connection are parsed as the next request while the first is still
 * being handled; if that parse fails, its error must follow the first answer, never replace it
 * (a write applied but answered 400 is an answer contradicting what was written). A parse error
 * inside the in-flight request's own body (bad chunked encoding) is that request's answer: now.
 */
export function afterAnswerInFlight(socket: Socket, then: () => void): void {
  const exchange = answering.get(socket);
  if (!exchange || !exchange.request.complete || exchange.response.writableFinished || exchange.response.destroyed) return then();
  exchange.response.once('close', then);
}
