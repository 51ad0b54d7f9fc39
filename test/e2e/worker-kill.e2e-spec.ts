import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { SERVER_ENTRY, ServerProcess, startServerProcess } from '../support/server-process.js';

jest.setTimeout(180_000);

const ADMIN_ENTRY = SERVER_ENTRY.replace('placement-api', 'placement-admin');
const HEADERS = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39', 'content-type': 'application/json' };
const PROVIDERS = 4;
const CLIENTS = 6;

/** The API workers of a PLACEMENT_WORKERS primary: its child processes. */
function workersOf(primary: number): number[] {
  const listed = spawnSync('pgrep', ['-P', String(primary)], { encoding: 'utf8' });
  return listed.stdout.split('\n').filter(Boolean).map(Number);
}

/**
 * Each request gives up after 20 s: a connection the primary was handing to the worker as it was
 * killed can be left with no one to answer or close it, and fetch would wait five minutes. For a
 * claim that is an outcome unknown to the client, as for any cut connection.
 */
async function call(base: string, method: string, path: string, body?: unknown) {
  const reply = await fetch(base + path, {
    method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(20_000),
  });
  const text = await reply.text();
  return { status: reply.status, json: text ? JSON.parse(text) : undefined };
}

/**
 * Issue 15: with PLACEMENT_WORKERS=2 and claims running, one API worker is killed with SIGKILL.
 * The primary starts another; every claim that was answered 204 is there; the claims cut off by
 * the kill are each either wholly written or not at all, so usages add up and verify is clean.
 */
describe('an API worker killed while claims run', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  const providers = Array.from({ length: PROVIDERS }, () => randomUUID());
  const acknowledged = new Map<string, string>();
  const attempted = new Map<string, string>();
  let killed = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startServerProcess({ DATABASE_URL: db.url, PLACEMENT_AUTH_STRATEGY: 'noauth2', PLACEMENT_WORKERS: '2', LOG_LEVEL: 'warn' });
    for (const uuid of providers) {
      expect((await call(server.url, 'POST', '/resource_providers', { uuid, name: `rp-${uuid}` })).status).toBe(200);
      expect((await call(server.url, 'PUT', `/resource_providers/${uuid}/inventories`,
        { resource_provider_generation: 0, inventories: { VCPU: { total: 100000 } } })).status).toBe(200);
    }
    // A worker younger than 5 s that dies counts as a failed start, which stops the service on purpose.
    await new Promise((resolve) => setTimeout(resolve, 6000));
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it('replaces the worker, and every acknowledged claim is readable', async () => {
    const [victim] = workersOf(server.child.pid!);
    expect(workersOf(server.child.pid!)).toHaveLength(2);
    const deadline = Date.now() + 4000;
    const client = async (n: number) => {
      for (let i = 0; Date.now() < deadline; i++) {
        const consumer = randomUUID(), provider = providers[(n + i) % PROVIDERS];
        attempted.set(consumer, provider);
        try {
          const reply = await call(server.url, 'PUT', `/allocations/${consumer}`, {
            consumer_generation: null, project_id: 'p', user_id: 'u', consumer_type: 'INSTANCE',
            allocations: { [provider]: { resources: { VCPU: 1 } } },
          });
          if (reply.status === 204) acknowledged.set(consumer, provider);
          else expect([503]).toContain(reply.status);
        } catch {
          // The connection went down with the worker: this claim's outcome is unknown to the client.
        }
      }
    };
    const running = Array.from({ length: CLIENTS }, (_, n) => client(n));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    process.kill(victim, 'SIGKILL');
    killed = victim;
    await Promise.all(running);

    let workers: number[] = [];
    for (let i = 0; i < 100 && (workers = workersOf(server.child.pid!)).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(workers).toHaveLength(2);
    expect(workers).not.toContain(killed);
    expect(acknowledged.size).toBeGreaterThan(10);
    process.stderr.write(`worker-kill: ${attempted.size} claims sent, ${acknowledged.size} acknowledged, worker ${killed} killed and replaced\n`);

    for (const [consumer, provider] of acknowledged) {
      const reply = await call(server.url, 'GET', `/allocations/${consumer}`);
      expect(Object.keys(reply.json.allocations)).toEqual([provider]);
      expect(reply.json.allocations[provider].resources).toEqual({ VCPU: 1 });
    }
    // Claims cut off by the kill: each wholly there or wholly absent, so usages are exactly the claims present.
    let present = 0;
    const perProvider = new Map<string, number>();
    for (const [consumer, provider] of attempted) {
      const reply = await call(server.url, 'GET', `/allocations/${consumer}`);
      const held = reply.json.allocations[provider]?.resources?.VCPU;
      if (held === undefined) continue;
      expect(held).toBe(1);
      present++;
      perProvider.set(provider, (perProvider.get(provider) ?? 0) + 1);
    }
    expect(present).toBeGreaterThanOrEqual(acknowledged.size);
    for (const uuid of providers) {
      const usages = await call(server.url, 'GET', `/resource_providers/${uuid}/usages`);
      expect(usages.json.usages.VCPU ?? 0).toBe(perProvider.get(uuid) ?? 0);
    }
    const verify = spawnSync(process.execPath, [ADMIN_ENTRY, 'verify'], { env: { ...process.env, DATABASE_URL: db.url }, encoding: 'utf8' });
    expect(verify.stdout).toMatch(/the read models match the log/);
    expect(verify.status).toBe(0);
  });
});
