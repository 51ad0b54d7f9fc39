import { connect, Socket } from 'node:net';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { parseAnswers } from '../support/raw-http.js';
import { startServerProcess, ServerProcess } from '../support/server-process.js';

const STALL_MS = 5000;

jest.setTimeout(90_000);

/** Issue 15: idle and slow connections neither starve other clients nor stay open forever. */
describe('connection floods and slow clients', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startServerProcess({ DATABASE_URL: db.url, PLACEMENT_AUTH_STRATEGY: 'noauth2' });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  interface Held { socket: Socket; received: Buffer[]; closedAt?: number; trickle?: NodeJS.Timeout }

  const open = (slow: boolean): Promise<Held> => new Promise((done, fail) => {
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    const held: Held = { socket, received: [] };
    socket.on('data', (chunk) => held.received.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => { held.closedAt = Date.now(); clearInterval(held.trickle); });
    socket.once('connect', () => {
      if (slow) {
        // Slowloris: a head that never ends, one header line every half second.
        socket.write('GET / HTTP/1.1\r\nhost: x\r\n');
        held.trickle = setInterval(() => socket.writable && socket.write('x-slow: 1\r\n'), 500);
      }
      done(held);
    });
    socket.once('error', fail);
  });

  it('keeps answering GET / with 500 idle or slow connections open, and closes them with a 408', async () => {
    const opened = Date.now();
    const held = await Promise.all(Array.from({ length: 500 }, (_, i) => open(i % 2 === 1)));
    for (let probe = 0; probe < 5; probe++) {
      const started = Date.now();
      // A stall bound, not a speed goal: the probe shares this machine (and CI's load) with the 500 sockets.
      const reply = await fetch(`${server.url}/`, { signal: AbortSignal.timeout(STALL_MS) });
      expect(reply.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(STALL_MS);
    }
    // The head time limit (10 s) closes every one of them, idle or slow, with upstream's 408.
    const deadline = opened + 20_000;
    while (held.some((h) => h.closedAt === undefined) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(held.filter((h) => h.closedAt === undefined)).toHaveLength(0);
    const answers = held.map((h) => parseAnswers(Buffer.concat(h.received)));
    const statuses = new Set(answers.map((a) => a[0]?.status));
    expect([...statuses]).toEqual([408]);
    expect(answers[0][0].json.errors[0]).toMatchObject({ status: 408, title: 'Request Timeout' });
    expect(server.child.exitCode).toBeNull();
  });
});
