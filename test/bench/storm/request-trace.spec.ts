import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { oneShot } from '../one-shot-http.js';
import type { ClientTimes } from '../one-shot-http.js';
import { joinTimes, traceLines } from './request-trace.js';
import { traceRequests, ServerTimes } from './server-trace.js';

const client = (port: number, asked: number, lastRead: number, connected = asked + 1): ClientTimes => ({ port, asked, connected, firstRead: lastRead - 1, lastRead });
const server = (port: number, method: string, accepted: number, started: number, finished: number): ServerTimes => ({ port, method, accepted, started, finished });

describe("a storm's trace of its requests", () => {
  it("finds each request's own record by its port and time, though ports are used again", () => {
    const parts = joinTimes(
      [client(40000, 100, 112, 103), client(40000, 200, 209), client(40001, 300, 310), client(40003, 400, 405)],
      [
        server(40000, 'PUT', 101, 104, 110), server(40000, 'PUT', 202, 203, 205), server(40000, 'GET', 302, 303, 305), server(40002, 'PUT', 301, 302, 303),
        // The client read the answer before the server's clock was read after writing it.
        server(40003, 'PUT', 401, 402, 405.5),
      ],
      'PUT',
    );
    expect(parts).toEqual([
      // The client saw the connection open after the server accepted it...
      { reach: 1, toWrite: 2, toRead: 1, handling: 6, back: 2 },
      // ...or before.
      { reach: 2, toWrite: 0, toRead: 1, handling: 2, back: 4 },
      { reach: 1, toWrite: 0, toRead: 1, handling: 3.5, back: -0.5 },
    ]);
  });

  it('says where the mean time went, the parts adding up to it, and the median handling', () => {
    const timed = [client(1, 0, 10), client(2, 0, 20), client(3, 0, 30)].map((times) => ({ at: 0, ms: 0, times }));
    const [line, missing] = traceLines(
      [server(1, 'GET', 1, 2, 8), server(2, 'GET', 2, 4, 14), server(3, 'GET', 3, 6, 26)],
      [{ what: 'GET candidates', method: 'GET', timed }, { what: 'PUT allocations', method: 'PUT', timed: [{ at: 0, ms: 0 }] }],
    );
    expect(line).toBe("  ours     GET candidates, traced on both sides (3 of 3): mean 20.00 ms = reaching the server's loop 2.00 + the client writing it 0.00 "
      + "+ the server's loop coming round to read it 2.00 + handling 12.00 (median 10.00) + the answer's way back 4.00\n");
    expect(missing).toBe("  ours     PUT allocations: none of its 1 requests found in the server's trace\n");
  });

  describe('through real connections', () => {
    let http: Server;
    let trace: ReturnType<typeof traceRequests>;
    beforeAll(async () => {
      trace = traceRequests('/nonexistent/never-written');
      http = createServer((request, response) => {
        // A handling long enough to tell it from the rest.
        setTimeout(() => response.end(request.method === 'GET' ? 'answer' : undefined), 30);
      });
      await new Promise<void>((listening) => http.listen(0, '127.0.0.1', listening));
    });
    afterAll(async () => {
      trace.stop();
      await new Promise((closed) => http.close(closed));
    });

    it("joins the server's record of each one-shot request to the client's, on one clock", async () => {
      const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/x`);
      const replies = await Promise.all([oneShot(url, 'GET', {}), oneShot(url, 'GET', {}), oneShot(url, 'PUT', {}, '{}')]);
      const times = replies.map((reply) => reply.times!);
      expect(new Set(times.map((t) => t.port)).size).toBe(3);
      const gets = joinTimes(times.slice(0, 2), trace.times(), 'GET');
      expect(gets).toHaveLength(2);
      expect(joinTimes(times.slice(2), trace.times(), 'PUT')).toHaveLength(1);
      gets.forEach((parts, i) => {
        expect(Math.min(parts.reach, parts.toWrite, parts.toRead, parts.back)).toBeGreaterThanOrEqual(0);
        expect(parts.handling).toBeGreaterThanOrEqual(29);
        expect(parts.reach + parts.toWrite + parts.toRead + parts.handling + parts.back).toBeCloseTo(times[i].lastRead - times[i].asked, 6);
      });
    });
  });
});
