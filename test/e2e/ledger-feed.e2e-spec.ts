import { randomUUID } from 'node:crypto';
import { providerNameStream } from '#domain/index.js';
import { LOG_STORES, startTestApp, TestApp } from '../support/test-app.js';

/** A write's reply carries the request id its events must show. */
const requestIdOf = (reply: { headers: Headers }) => reply.headers.get('x-openstack-request-id')!;

// The same arc over both log stores: every answer must be the same whichever keeps the log.
describe.each(LOG_STORES)('ledger: the global feed, long-poll and server-sent events (log in %s)', (logStore) => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp({}, logStore); });
  afterAll(async () => app.close());

  const rp = randomUUID();
  const vm = randomUUID();
  const writes: Record<string, string> = {};

  beforeAll(async () => {
    const steps: [string, string, string, object?][] = [
      ['create', 'POST', '/resource_providers', { name: `feed-${rp}`, uuid: rp }],
      ['inventory', 'PUT', `/resource_providers/${rp}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 8 } } }],
      ['traits', 'PUT', `/resource_providers/${rp}/traits`, { resource_provider_generation: 1, traits: ['HW_CPU_X86_AVX'] }],
      ['claim', 'PUT', `/allocations/${vm}`, {
        allocations: { [rp]: { resources: { VCPU: 2 } } }, project_id: 'proj-f', user_id: 'user-f', consumer_generation: null, consumer_type: 'INSTANCE',
      }],
      ['resize', 'PUT', `/allocations/${vm}`, {
        allocations: { [rp]: { resources: { VCPU: 4 } } }, project_id: 'proj-f', user_id: 'user-f', consumer_generation: 1, consumer_type: 'INSTANCE',
      }],
      ['aggregates', 'PUT', `/resource_providers/${rp}/aggregates`, { resource_provider_generation: 4, aggregates: [randomUUID()] }],
      ['release', 'DELETE', `/allocations/${vm}`],
    ];
    for (const [name, method, path, body] of steps) {
      const reply = await app.request(method, path, { version: 'latest', body });
      expect([name, reply.status < 300]).toEqual([name, true]);
      writes[name] = requestIdOf(reply);
    }
  });

  const history = (path: string) => app.request('GET', path);

  describe('the global feed', () => {
    const feed = async (query = '') => (await app.request('GET', `/ledger/events${query}`)).body;

    /** Everything from the start, a page at a time. */
    async function everything(limit = 4): Promise<any[]> {
      const events: any[] = [];
      let after = '';
      for (;;) {
        const page = await feed(`?limit=${limit}${after ? `&after=${after}` : ''}`);
        events.push(...page.events);
        if (page.events.length === 0) return events;
        after = page.next;
      }
    }

    it('pages through every event once, in the global order, from an opaque position', async () => {
      const events = await everything();
      const positions = events.map((e) => e.position);
      expect(new Set(positions).size).toBe(positions.length);
      const mine = events.filter((e) => e.stream === `provider-${rp}`);
      expect(mine).toEqual((await history(`/ledger/resource_providers/${rp}/history`)).body.events);
      // A claim is one transaction over the consumer's and the provider's streams.
      const claim = events.filter((e) => e.request_id === writes.claim).map((e) => e.stream).sort();
      expect(claim).toEqual([`consumer-${vm}`, `provider-${rp}`]);
      expect(events.findIndex((e) => e.request_id === writes.claim)).toBeLessThan(events.findIndex((e) => e.request_id === writes.resize));
    });

    it('answers an empty page at the head, with the same position to resume from', async () => {
      const all = await everything(50);
      const head = all[all.length - 1].position;
      expect(await feed(`?after=${head}`)).toEqual({ events: [], next: head });
    });

    it('refuses a position that is not a token, and an Accept it cannot produce', async () => {
      for (const query of ['?after=12', '?after=abc', '?limit=0', '?wait=61', '?stream=websocket', '?keepalive=0']) {
        expect([query, (await app.request('GET', `/ledger/events${query}`)).status]).toEqual([query, 400]);
      }
      expect((await app.request('GET', '/ledger/events', { headers: { accept: 'text/plain' } })).status).toBe(406);
    });

    it('long-polls: an empty feed answers as soon as an event is committed', async () => {
      const all = await everything(50);
      const head = all[all.length - 1].position;
      const started = Date.now();
      const waiting = app.request('GET', `/ledger/events?after=${head}&wait=20`);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const late = randomUUID();
      expect((await app.request('POST', '/resource_providers', { body: { name: `late-${late}`, uuid: late } })).status).toBe(201);
      const reply = await waiting;
      expect(Date.now() - started).toBeLessThan(10_000);
      // The creation's one append, on both stores: the provider's event and its name's reservation.
      expect(reply.body.events.map((e: any) => [e.type, e.stream])).toEqual([
        ['ResourceProviderCreated', `provider-${late}`], ['ProviderNameReserved', providerNameStream(`late-${late}`)]]);
      expect(reply.body.next).toBe(reply.body.events[1].position);
    });

    it('long-polls: gives up with nothing after the wait', async () => {
      const all = await everything(50);
      const head = all[all.length - 1].position;
      const started = Date.now();
      expect((await app.request('GET', `/ledger/events?after=${head}&wait=1`)).body).toEqual({ events: [], next: head });
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    });
  });

  describe('server-sent events', () => {
    /** Reads SSE frames from a fetch body until `done` says enough. */
    async function readFrames(body: ReadableStream<Uint8Array>, done: (frames: string[]) => boolean, timeoutMs = 10_000): Promise<string[]> {
      const reader = body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      const frames: string[] = [];
      const deadline = Date.now() + timeoutMs;
      while (!done(frames)) {
        if (Date.now() > deadline) throw new Error(`no expected frame within ${timeoutMs} ms: ${JSON.stringify(frames)}`);
        const { value, done: ended } = await reader.read();
        if (ended) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          frames.push(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
      }
      reader.releaseLock();
      return frames;
    }
    const dataOf = (frames: string[]) => frames.filter((f) => /^(id: .*\n)?data: /m.test(f)).map((f) => JSON.parse(f.split('\n').find((l) => l.startsWith('data: '))!.slice(6)));
    const headOfFeed = async () => {
      let after = '';
      for (;;) {
        const page = (await app.request('GET', `/ledger/events?limit=1000${after ? `&after=${after}` : ''}`)).body;
        if (page.events.length === 0) return page.next;
        after = page.next;
      }
    };

    it('streams an event committed after the client connected, then lets the client go', async () => {
      const head = await headOfFeed();
      const controller = new AbortController();
      const response = await fetch(`${app.baseUrl}/ledger/events?after=${head}`, {
        headers: { accept: 'text/event-stream', 'x-auth-token': 'admin' }, signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(response.headers.get('x-openstack-request-id')).toMatch(/^req-/);
      const first = await readFrames(response.body!, (frames) => frames.some((f) => f.includes(': connected')));
      expect(first[0]).toContain('retry: 2000');

      const fresh = randomUUID();
      const write = await app.request('POST', '/resource_providers', { body: { name: `sse-${fresh}`, uuid: fresh } });
      const frames = await readFrames(response.body!, (got) => dataOf(got).length > 0);
      const [event] = dataOf(frames);
      expect(event).toMatchObject({ type: 'ResourceProviderCreated', stream: `provider-${fresh}`, request_id: requestIdOf(write), generation: 0 });
      expect(frames.find((f) => f.includes('data: '))).toMatch(new RegExp(`^id: ${event.position}\n`));
      controller.abort();
      // The server lets go of the client and keeps answering.
      expect((await app.request('GET', `/ledger/events?after=${event.position}`)).status).toBe(200);
    });

    it('resumes after the Last-Event-ID of a reconnecting EventSource, with ?stream=sse', async () => {
      const events = (await app.request('GET', `/ledger/resource_providers/${rp}/history`)).body.events;
      const controller = new AbortController();
      const response = await fetch(`${app.baseUrl}/ledger/events?stream=sse`, {
        headers: { 'x-auth-token': 'admin', 'last-event-id': events[5].position }, signal: controller.signal,
      });
      const frames = await readFrames(response.body!, (got) => dataOf(got).some((e) => e.stream === `provider-${rp}`));
      controller.abort();
      const resumed = dataOf(frames);
      expect(resumed.find((e) => e.stream === `provider-${rp}`).revision).toBe(6);
      expect(resumed.map((e) => e.position)).not.toContain(events[5].position);
    });

    it('sends keep-alive comments while nothing happens', async () => {
      const head = await headOfFeed();
      const controller = new AbortController();
      const response = await fetch(`${app.baseUrl}/ledger/events?stream=sse&keepalive=1&after=${head}`, {
        headers: { 'x-auth-token': 'admin' }, signal: controller.signal,
      });
      const frames = await readFrames(response.body!, (got) => got.some((f) => f === ': keep-alive'), 5000);
      controller.abort();
      expect(frames).toContain(': keep-alive');
    });

    it('ends an open stream when the server shuts down, without waiting out the grace period', async () => {
      const second = await startTestApp({ PLACEMENT_SHUTDOWN_GRACE_SECONDS: '30' }, logStore);
      const response = await fetch(`${second.baseUrl}/ledger/events?stream=sse`, { headers: { 'x-auth-token': 'admin' } });
      const reader = response.body!.getReader();
      await reader.read();
      const started = Date.now();
      await second.close();
      expect(Date.now() - started).toBeLessThan(5000);
      let ended = false;
      while (!ended) ended = (await reader.read()).done;
      expect(ended).toBe(true);
    });

    it('refuses a bad Last-Event-ID before opening the stream', async () => {
      const reply = await app.request('GET', '/ledger/events?stream=sse', { headers: { 'last-event-id': 'nope' } });
      expect(reply.status).toBe(400);
    });
  });

});
