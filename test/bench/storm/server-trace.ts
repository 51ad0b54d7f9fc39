import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';

/**
 * When each request reached our server, on the monotonic clock every process of the host shares
 * (process.hrtime): its connection accepted, its head read, its answer handed to the socket, in
 * milliseconds. The client's own times of the same request (one-shot-http.ts) are joined to them
 * by the client's port (storm/request-trace.ts).
 */
export interface ServerTimes {
  readonly port: number;
  readonly method: string;
  readonly accepted: number;
  readonly started: number;
  readonly finished: number;
}

export const TRACE_ENV = 'PLACEMENT_BENCH_TRACE';

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * Records every request this process answers, and writes them to `${file}.${pid}` as it exits
 * (each worker of PLACEMENT_WORKERS writes its own). Loaded into the server with `--require`
 * (storm.ts --trace): diagnostics channels, so the server's code is the one that ships.
 * `stop` ends the recording without writing.
 */
export function traceRequests(file: string): { times(): ServerTimes[]; stop(): void } {
  const times: ServerTimes[] = [];
  const accepted = new WeakMap<Socket, number>();
  const onSocket = (message: unknown) => {
    accepted.set((message as { socket: Socket }).socket, nowMs());
  };
  const onRequest = (message: unknown) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    const started = nowMs();
    const socket = request.socket;
    const port = socket.remotePort ?? 0;
    // A keep-alive connection's later requests were accepted with its first.
    const acceptedAt = accepted.get(socket) ?? started;
    // When the whole answer was handed to the socket, whether or not the client had read it yet
    // ('finish' waits for the kernel to take its last bytes, and never comes when the client
    // closes first, as the schedulers do once they have read the stated length).
    response.once('prefinish', () => {
      times.push({ port, method: request.method ?? '', accepted: acceptedAt, started, finished: nowMs() });
    });
  };
  const write = () => writeFileSync(`${file}.${process.pid}`, JSON.stringify(times));
  subscribe('net.server.socket', onSocket);
  subscribe('http.server.request.start', onRequest);
  process.once('exit', write);
  return {
    times: () => times,
    stop: () => {
      unsubscribe('net.server.socket', onSocket);
      unsubscribe('http.server.request.start', onRequest);
      process.off('exit', write);
    },
  };
}

if (process.env[TRACE_ENV]) traceRequests(process.env[TRACE_ENV]);
