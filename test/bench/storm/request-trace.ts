import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { percentile } from '../measure.js';
import type { ClientTimes } from '../one-shot-http.js';
import type { ServerTimes } from './server-trace.js';
import type { Timed } from './scheduler.js';

/**
 * Where a request's time went, in milliseconds, from the client's asking to its reading the
 * whole answer; the parts add up to the client's time. `reach`: until the server's event loop
 * accepted the connection; `toWrite`: from then until the client wrote the request (it does so
 * once its own loop sees the connection open, which may come first: then 0); `toRead`: from
 * then until the server's loop came round to read the request's head; `handling`: the
 * server's, from the head read to the whole answer handed to the socket; `back`: from then
 * until the client had read all of it (the kernel's part and the client's loop's turn).
 */
export interface RequestParts {
  readonly reach: number;
  readonly toWrite: number;
  readonly toRead: number;
  readonly handling: number;
  readonly back: number;
}

const PARTS: readonly (keyof RequestParts)[] = ['reach', 'toWrite', 'toRead', 'handling', 'back'];

/** The server's record of each client request, found by the client's port among those the server accepted while the request was out. */
export function joinTimes(client: readonly ClientTimes[], server: readonly ServerTimes[], method: string): RequestParts[] {
  const byPort = new Map<number, ServerTimes[]>();
  for (const times of server) {
    if (times.method !== method) continue;
    const same = byPort.get(times.port);
    if (same) same.push(times);
    else byPort.set(times.port, [times]);
  }
  const parts: RequestParts[] = [];
  for (const asked of client) {
    // Accepted while the request was out. Its end may come after the client's: the server's write
    // wakes the client, which may read the answer before the server's next line runs.
    const found = byPort.get(asked.port)?.find((s) => s.accepted >= asked.asked && s.accepted <= asked.lastRead);
    if (!found) continue;
    const written = Math.max(found.accepted, asked.connected);
    parts.push({
      reach: found.accepted - asked.asked,
      toWrite: written - found.accepted,
      toRead: found.started - written,
      handling: found.finished - found.started,
      back: asked.lastRead - found.finished,
    });
  }
  return parts;
}

/** Every file the server's processes wrote for `file` (server-trace.ts), read and then removed. */
export function readServerTimes(file: string): ServerTimes[] {
  const dir = dirname(file);
  const written = readdirSync(dir).filter((name) => name.startsWith(`${basename(file)}.`));
  const times = written.flatMap((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as ServerTimes[]);
  for (const name of written) rmSync(join(dir, name));
  return times;
}

const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** One line per method: the means of the parts, which add up to the mean the client saw, and the server's own median. */
export function traceLines(server: readonly ServerTimes[], requests: readonly { what: string; method: string; timed: readonly Timed[] }[]): string[] {
  return requests.map(({ what, method, timed }) => {
    const client = timed.flatMap((t) => (t.times ? [t.times] : []));
    const parts = joinTimes(client, server, method);
    if (parts.length === 0) return `  ours     ${what}: none of its ${timed.length} requests found in the server's trace\n`;
    const [reach, toWrite, toRead, handling, back] = PARTS.map((part) => mean(parts.map((p) => p[part])));
    return `  ours     ${what}, traced on both sides (${parts.length} of ${timed.length}): mean ${(reach + toWrite + toRead + handling + back).toFixed(2)} ms = `
      + `reaching the server's loop ${reach.toFixed(2)} + the client writing it ${toWrite.toFixed(2)} + the server's loop coming round to read it ${toRead.toFixed(2)} `
      + `+ handling ${handling.toFixed(2)} (median ${percentile(parts.map((p) => p.handling).sort((a, b) => a - b), 50).toFixed(2)}) + the answer's way back ${back.toFixed(2)}\n`;
  });
}
