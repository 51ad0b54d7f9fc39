import { Agent, request } from 'node:http';
import { AnswerBytes, HttpReply, IDLE_MS, oneShot } from './one-shot-http.js';

export type { HttpReply } from './one-shot-http.js';

/**
 * A client for one server, speaking as the admin token at one microversion. Keep-alive unless
 * told otherwise: upstream's gate opens a new connection per request, as `keepAlive: false` does.
 * `lean` makes each such request as ApacheBench does (one-shot-http.ts), for the phases whose
 * CPU is measured; loading keeps Node's client, with which upstream's uWSGI stalled less often
 * (every thread of a worker asleep, cause unknown; more often with the lean client). Either fails
 * the bench after a minute of silence.
 */
export class BenchClient {
  private readonly agent: Agent;

  constructor(private readonly baseUrl: string, private readonly version = '1.39', private readonly keepAlive = true, private readonly lean = false) {
    this.agent = new Agent({ keepAlive, maxSockets: 64 });
  }

  /** `into`: where a lean request's answer is read (one-shot-http.ts), its reply then valid until that is given again. */
  call(method: string, path: string, body?: unknown, version = this.version, into?: AnswerBytes): Promise<HttpReply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const url = new URL(path, this.baseUrl);
    const headers: Record<string, string> = {
      'x-auth-token': 'admin', accept: 'application/json', 'openstack-api-version': `placement ${version}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    };
    if (!this.keepAlive && this.lean) return oneShot(url, method, headers, payload, into);
    return new Promise((resolve, reject) => {
      const req = request(url, { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(new HttpReply(res.statusCode ?? 0, Buffer.concat(chunks))));
        res.on('error', reject);
      });
      req.on('error', reject);
      // A server that stops answering (upstream's uWSGI once did, mid-load) fails the bench instead of hanging it.
      req.setTimeout(IDLE_MS, () => req.destroy(new Error(`${method} ${path}: no answer for ${IDLE_MS / 1000} s`)));
      // Node adds content-length for a body written with end().
      req.end(payload);
    });
  }

  /** A call that must answer one of `expected`, else the bench stops with the reply. */
  async expect(method: string, path: string, body: unknown, expected: number[], version?: string): Promise<HttpReply> {
    const reply = await this.call(method, path, body, version);
    if (!expected.includes(reply.status)) throw new Error(`${method} ${path} answered ${reply.status}: ${reply.body.slice(0, 500)}`);
    return reply;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Runs `task(i)` for i in [0, count) with at most `workers` at a time. */
export async function inParallel(count: number, workers: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(workers, count) }, async () => {
    while (next < count) await task(next++);
  }));
}
