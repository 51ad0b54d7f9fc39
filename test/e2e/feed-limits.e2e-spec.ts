import { connect, Socket } from 'node:net';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { startServerProcess, ServerProcess } from '../support/server-process.js';

jest.setTimeout(120_000);

const TOTAL = 50;
const PER_CALLER = 5;
const STALL_MS = 5000;

interface Attempt { readonly socket: Socket; readonly head: Promise<string> }

/**
 * Issue 27: the feed's long polls and event streams are bounded, in all and per caller, so that
 * thousands of attempted streams neither hold thousands of connections open nor slow the service.
 */
describe('the ledger feed under a flood of streams', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let port: number;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startServerProcess({
      DATABASE_URL: db.url, PLACEMENT_AUTH_STRATEGY: 'noauth2',
      PLACEMENT_FEED_MAX_CONNECTIONS: String(TOTAL), PLACEMENT_FEED_MAX_CONNECTIONS_PER_CALLER: String(PER_CALLER),
    });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  /** An event stream asked for over a connection of its own; `head` is what arrived before the status line's block ended. */
  const attempt = (user: string): Attempt => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    const head = new Promise<string>((done) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
        if (text.includes('\r\n\r\n')) done(text);
      });
      socket.on('close', () => done(text));
    });
    socket.write(`GET /ledger/events?stream=sse HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${user}\r\nX-Roles: admin\r\nAccept: text/event-stream\r\n\r\n`);
    return { socket, head };
  };
  const status = (head: string) => Number(head.slice(9, 12));

  it('serves at most the total at once, 429 with Retry-After past it, and GET / keeps answering throughout', async () => {
    const timings: number[] = [];
    let flooding = true;
    const probe = (async () => {
      while (flooding) {
        const started = performance.now();
        // A stall bound, not a speed goal: the 2,000 connects share this machine's backlog and this
        // process's event loop with the probe, so its latency follows the machine's load.
        expect((await fetch(`${server.url}/`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(STALL_MS) })).status).toBe(200);
        timings.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const attempts = Array.from({ length: 2000 }, (_, i) => attempt(`user-${i}`));
    // Closed however the test ends: streams left open would hold the slots the next tests count on.
    try {
      const heads = await Promise.all(attempts.map((a) => a.head));
      flooding = false;
      await probe;
      const statuses = heads.map(status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(TOTAL);
      expect(statuses.filter((s) => s === 429)).toHaveLength(2000 - TOTAL);
      const refused = heads.find((head) => status(head) === 429)!;
      expect(refused).toMatch(/\r\nretry-after: 5\r\n/i);
      expect(timings.length).toBeGreaterThan(0);
      expect(Math.max(...timings)).toBeLessThan(STALL_MS);
      // With every slot held, the service still answers.
      expect((await fetch(`${server.url}/`, { signal: AbortSignal.timeout(STALL_MS) })).status).toBe(200);
    } finally {
      flooding = false;
      for (const { socket } of attempts) socket.destroy();
    }
  });

  it('holds one caller to its own share, and gives the slots back as streams end', async () => {
    // The streams of the test before are gone once the server has seen their sockets close.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const mine = [...Array.from({ length: PER_CALLER + 1 }, () => attempt('greedy')), attempt('someone-else')];
    try {
      const heads = await Promise.all(mine.slice(0, PER_CALLER + 1).map((a) => a.head));
      expect(heads.map(status).sort()).toEqual([...Array(PER_CALLER).fill(200), 429]);
      expect(status(await mine[PER_CALLER + 1].head)).toBe(200);
    } finally {
      for (const { socket } of mine) socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const again = attempt('greedy');
    expect(status(await again.head)).toBe(200);
    again.socket.destroy();
  });

  it('counts a long poll as a connection too', async () => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const polls = Array.from({ length: PER_CALLER }, () => fetch(`${server.url}/ledger/events?wait=2`, { headers: { 'x-auth-token': 'poller', 'x-roles': 'admin' } }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await fetch(`${server.url}/ledger/events?wait=2`, { headers: { 'x-auth-token': 'poller', 'x-roles': 'admin' } });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { errors: { status: number }[] }).errors[0].status).toBe(429);
    expect((await fetch(`${server.url}/ledger/events`, { headers: { 'x-auth-token': 'poller', 'x-roles': 'admin' } })).status).toBe(200);
    for (const poll of await Promise.all(polls)) expect(poll.status).toBe(200);
  });
});
