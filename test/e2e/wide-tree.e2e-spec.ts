import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { startServerProcess, ServerProcess } from '../support/server-process.js';
import { sample } from '../support/exposition.js';

jest.setTimeout(180_000);

const WIDTH = 10;
const HEADERS = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement latest', 'content-type': 'application/json' };
/**
 * One group per single-unit device (upstream bugs 2070257 and 2126751): 10! = 3,628,800 candidates.
 * With every group suffixed the count is sure before any is generated, under either policy; with
 * one of them unsuffixed, spread over the tree, the search cannot tell beforehand, and generates
 * until past the ceiling.
 */
const wide = (policy: 'isolate' | 'none', unsuffixed = false) => `/allocation_candidates?${
  Array.from({ length: WIDTH }, (_, i) => `resources${unsuffixed && i === 0 ? '' : i + 1}=PCI_DEVICE:1`).join('&')}&group_policy=${policy}`;
const WIDE = wide('isolate');
const SPREAD = wide('none', true);

/** The most memory the server process has held (VmHWM), in bytes. */
function peakMemory(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'))!;
  return Number(line.split(/\s+/)[1]) * 1024;
}

/**
 * Issue 30: no question stalls the service. A wide tree's answer without a limit is refused in
 * upstream's error shape, naming limit and max_allocation_candidates: at once where the count is
 * sure beforehand, else once generation passes the ceiling, while the server goes on answering
 * everyone else; with a limit it is answered.
 */
describe('a wide tree asked without a limit', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  /** A compute node of its own, for the claims made while the wide tree is asked about. */
  const other = randomUUID();

  const send = async (method: string, path: string, body?: unknown) => {
    const reply = await fetch(`${server.url}${path}`, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: reply.status, text: await reply.text() };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startServerProcess({ DATABASE_URL: db.url, PLACEMENT_AUTH_STRATEGY: 'noauth2' });
    const root = randomUUID();
    expect((await send('POST', '/resource_providers', { name: `wide-${root}`, uuid: root })).status).toBe(200);
    expect((await send('POST', '/resource_providers', { name: `cn-${other}`, uuid: other })).status).toBe(200);
    expect((await send('PUT', `/resource_providers/${other}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 64 } } })).status).toBe(200);
    for (let i = 0; i < WIDTH; i++) {
      const device = randomUUID();
      expect((await send('POST', '/resource_providers', { name: `dev-${device}`, uuid: device, parent_provider_uuid: root })).status).toBe(200);
      expect((await send('PUT', `/resource_providers/${device}/inventories`, { resource_provider_generation: 0, inventories: { PCI_DEVICE: { total: 1 } } })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  const expectRefused = (refused: { status: number; text: string }) => {
    expect(refused.status).toBe(400);
    const error = JSON.parse(refused.text).errors[0];
    expect(error.code).toBe('placement.query.bad_value');
    expect(error.detail).toMatch(/more than 100000 allocation candidates\. Ask for fewer with limit, or set \[placement\] max_allocation_candidates/);
  };

  it('is refused with a 400 naming limit and max_allocation_candidates, isolated or not, with an unsuffixed group or not', async () => {
    expectRefused(await send('GET', WIDE));
    expectRefused(await send('GET', wide('none')));
    expectRefused(await send('GET', SPREAD));
  });

  it('is searched past the ceiling where the count is not sure beforehand, while GET /, claims and other questions go on being answered', async () => {
    const latencies: number[] = [];
    let asking = true;
    let wideEnded = Infinity;
    const wideStarted = performance.now();
    const searched = send('GET', SPREAD).finally(() => {
      asking = false;
      wideEnded = performance.now();
    });
    const probes = (async () => {
      while (asking) {
        const started = performance.now();
        expect((await fetch(`${server.url}/`)).status).toBe(200);
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    // Long enough for the wide search to have begun; far shorter than it runs.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const claim = await send('PUT', `/allocations/${randomUUID()}`, {
      allocations: { [other]: { resources: { VCPU: 1 } } }, project_id: 'p', user_id: 'u', consumer_generation: null, consumer_type: 'INSTANCE',
    });
    // Another question, which must show the claim: answered while the wide search still runs, not after it.
    const question = await send('GET', '/allocation_candidates?resources=VCPU:1');
    const questionEnded = performance.now();
    // Long by now, the search lets the requests in progress go first (loop-turns.ts).
    const during = (await send('GET', '/metrics')).text;
    const scrapedWhileAsking = asking;
    const refused = await searched;
    await probes;
    expect(claim.status).toBe(204);
    expect(question.status).toBe(200);
    expect(JSON.parse(question.text).provider_summaries[other].resources.VCPU.used).toBe(1);
    process.stdout.write(`the wide search took ${(wideEnded - wideStarted).toFixed(0)} ms; the other question ended ${(wideEnded - questionEnded).toFixed(0)} ms before it\n`);
    expect(questionEnded).toBeLessThan(wideEnded);
    expect(scrapedWhileAsking).toBe(true);
    expect(sample(during, 'placement_long_answers_in_progress')).toBe(1);
    const after = (await send('GET', '/metrics')).text;
    expect([sample(after, 'placement_http_requests_in_progress'), sample(after, 'placement_long_answers_in_progress')]).toEqual([1, 0]);
    expectRefused(refused);
    expect(latencies.length).toBeGreaterThan(3);
    process.stdout.write(`GET / during the wide search: ${latencies.length} asked, slowest ${Math.max(...latencies).toFixed(1)} ms\n`);
    // The search pauses every slice: what GET / waits is a slice, not the whole search (18 s before).
    expect(Math.max(...latencies)).toBeLessThan(500);
    expect(peakMemory(server.child.pid!)).toBeLessThan(1024 ** 3);
  });

  it('is answered with a limit', async () => {
    const reply = await send('GET', `${WIDE}&limit=1000`);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text).allocation_requests).toHaveLength(1000);
  });
});
