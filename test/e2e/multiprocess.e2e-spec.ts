import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { SERVER_ENTRY, ServerProcess, startServerProcess } from '../support/server-process.js';
import { startTestApp, TestApp } from '../support/test-app.js';
import { PostgresEventStore } from '#event-store/index.js';
import { AsyncProjector, storeReader } from '#projections/runner/async/index.js';
import { ALL_PROJECTIONS } from '#projections/index.js';

jest.setTimeout(240_000);

/**
 * Several processes on one PostgreSQL, from the built entry points (`npm run build`, or
 * TEST_SERVER_ENTRY for another build): an API cluster of 2 workers and a single API process,
 * both with asynchronous projections, fed by two projector processes of which one leads.
 * Concurrent claims go through both APIs while the leading projector is killed with SIGKILL.
 */
const PROJECTOR_ENTRY = SERVER_ENTRY.replace('placement-api', 'placement-projector');
const ADMIN_ENTRY = SERVER_ENTRY.replace('placement-api', 'placement-admin');

interface Projector { readonly child: ChildProcess; output(): string; readonly exited: Promise<unknown> }

function startProjector(url: string): Projector {
  const child = spawn(process.execPath, [PROJECTOR_ENTRY], {
    env: { ...process.env, DATABASE_URL: url, PLACEMENT_PROJECTOR_STANDBY_POLL_MS: '250', PLACEMENT_PROJECTOR_BATCH_SIZE: '20' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  return { child, output: () => log, exited: new Promise((done) => child.on('exit', done)) };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}

const leads = (p: Projector) => p.output().includes('"role":"leading"');
const HEADERS = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39', 'content-type': 'application/json' };

async function call(base: string, method: string, path: string, body?: unknown) {
  const reply = await fetch(base + path, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await reply.text();
  return { status: reply.status, body: text ? JSON.parse(text) : undefined };
}

async function ok(base: string, method: string, path: string, body?: unknown) {
  const reply = await call(base, method, path, body);
  if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

describe('several API processes and a projector with a standby, on one PostgreSQL', () => {
  let database: TestDatabase;
  let db: Client;
  let apis: ServerProcess[] = [];
  let projectors: Projector[] = [];
  const providers = Array.from({ length: 4 }, () => randomUUID());
  const CAPACITY = 24;
  const acknowledged = new Map<string, { provider: string; vcpu: number }>();
  const statuses: number[] = [];
  let takeoverMs = 0;
  let acknowledgedAfterKill = 0;

  beforeAll(async () => {
    database = await createTestDatabase('pl_multi');
    const env = { DATABASE_URL: database.url, PLACEMENT_PROJECTIONS: 'async', PLACEMENT_PROJECTOR: 'off', LOG_LEVEL: 'warn' };
    // Started one after the other so both APIs do not race the same migrations (they would take turns anyway).
    apis.push(await startServerProcess({ ...env, PLACEMENT_WORKERS: '2' }));
    apis.push(await startServerProcess(env));
    projectors.push(startProjector(database.url));
    await until('the first projector leads', () => leads(projectors[0]));
    projectors.push(startProjector(database.url));
    await until('the second projector stands by', () => projectors[1].output().includes('"role":"standby"'));
    db = new Client({ connectionString: database.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await Promise.all(apis.map((api) => api.stop()));
    for (const projector of projectors) if (projector.child.exitCode === null) projector.child.kill('SIGTERM');
    await Promise.all(projectors.map((p) => p.exited));
    await database?.drop();
  });

  it('serves concurrent claims through both APIs while the leading projector is killed, and the standby takes over', async () => {
    for (const [i, uuid] of providers.entries()) {
      // Created through one API, used at once through the other: read-your-writes across processes.
      await ok(apis[i % 2].url, 'POST', '/resource_providers', { uuid, name: `multi-${i}` });
      await ok(apis[(i + 1) % 2].url, 'PUT', `/resource_providers/${uuid}/inventories`, {
        resource_provider_generation: 0, inventories: { VCPU: { total: CAPACITY, allocation_ratio: 1 } },
      });
    }
    const consumers = Array.from({ length: 160 }, (_, i) => ({ uuid: randomUUID(), provider: providers[i % providers.length], vcpu: 1 + (i % 2) }));
    let next = 0;
    let killed = false;
    const worker = async (lane: number) => {
      while (next < consumers.length) {
        const consumer = consumers[next++];
        if (!killed && acknowledged.size >= 12) {
          killed = true;
          projectors[0].child.kill('SIGKILL');
          void until('the standby leads', () => leads(projectors[1]), 10_000).then((ms) => (takeoverMs = ms));
        }
        const reply = await call(apis[lane % 2].url, 'PUT', `/allocations/${consumer.uuid}`, {
          allocations: { [consumer.provider]: { resources: { VCPU: consumer.vcpu } } },
          project_id: 'proj', user_id: 'user', consumer_generation: null, consumer_type: 'INSTANCE',
        });
        statuses.push(reply.status);
        if (reply.status === 204) acknowledged.set(consumer.uuid, consumer);
        if (reply.status === 204 && killed) acknowledgedAfterKill++;
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, lane) => worker(lane)));

    expect(killed).toBe(true);
    await projectors[0].exited;
    await until('the standby leads', () => leads(projectors[1]), 10_000);
    expect(takeoverMs).toBeLessThan(5000);
    // A claim replies only once the read models passed it: these went through the standby's projecting.
    expect(acknowledgedAfterKill).toBeGreaterThan(20);
    // Every claim either fitted (204) or was refused for capacity or a lost race (409); none waited out the takeover.
    expect(statuses.filter((s) => s !== 204 && s !== 409)).toEqual([]);
    const fitted = providers.length * CAPACITY / 1.5;
    expect(acknowledged.size).toBeGreaterThan(fitted * 0.6);
  });

  it('has applied every event of the log exactly once: the checkpoints are at the log head and verify finds no drift', async () => {
    const head = async () => (await db.query(
      `SELECT (SELECT count(DISTINCT (commit_xid, position)) FROM read_models.rm_projection_checkpoints) AS distinct_checkpoints,
              (SELECT min(commit_xid::text || ':' || position) FROM read_models.rm_projection_checkpoints) AS checkpoint,
              (SELECT transaction_id::text || ':' || position FROM es_events ORDER BY transaction_id DESC, position DESC LIMIT 1) AS head`)).rows[0];
    await until('the checkpoints reach the head of the log', async () => {
      const row = await head();
      return row.distinct_checkpoints === '1' && row.checkpoint === row.head;
    });
    const verify = spawnSync(process.execPath, [ADMIN_ENTRY, 'verify'], { env: { ...process.env, DATABASE_URL: database.url }, encoding: 'utf8' });
    expect(verify.stderr).toBe('');
    expect(verify.stdout).toMatch(/verify: the read models match the log/);
    expect(verify.status).toBe(0);
  });

  it('reads every acknowledged claim back through both APIs, with usages that add up and no provider over capacity', async () => {
    for (const api of apis) {
      for (const [uuid, claim] of acknowledged) {
        const body = await ok(api.url, 'GET', `/allocations/${uuid}`);
        expect(body.allocations).toEqual({ [claim.provider]: { generation: expect.any(Number), resources: { VCPU: claim.vcpu } } });
      }
      for (const provider of providers) {
        const expected = [...acknowledged.values()].filter((c) => c.provider === provider).reduce((sum, c) => sum + c.vcpu, 0);
        const usages = (await ok(api.url, 'GET', `/resource_providers/${provider}/usages`)).usages;
        expect(usages.VCPU ?? 0).toBe(expected);
        expect(expected).toBeLessThanOrEqual(CAPACITY);
      }
      const total = [...acknowledged.values()].reduce((sum, c) => sum + c.vcpu, 0);
      expect((await ok(api.url, 'GET', '/usages?project_id=proj')).usages).toEqual({ INSTANCE: { consumer_count: acknowledged.size, VCPU: total } });
    }
    const { rows } = await db.query('SELECT count(DISTINCT consumer_uuid)::int AS n FROM read_models.rm_allocations');
    expect(rows[0].n).toBe(acknowledged.size);
  });

  it('creates one provider when both APIs are asked for the same name at once; the projector goes on', async () => {
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) =>
      call(apis[i % 2].url, 'POST', '/resource_providers', { uuid: randomUUID(), name: 'raced-name' })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const reply of replies.filter((r) => r.status === 409)) expect(reply.body.errors[0].code).toBe('placement.duplicate_name');
    for (const api of apis) {
      expect((await ok(api.url, 'GET', '/resource_providers?name=raced-name')).resource_providers).toHaveLength(1);
    }
    await ok(apis[1].url, 'POST', '/resource_providers', { uuid: randomUUID(), name: 'after-the-race' });
  });
});

describe('asynchronous projections with the projector stopped, then started', () => {
  let app: TestApp;
  const first = randomUUID(), second = randomUUID();

  beforeAll(async () => {
    app = await startTestApp({ PLACEMENT_PROJECTIONS: 'async', PLACEMENT_PROJECTOR: 'off', PLACEMENT_PROJECTION_WAIT_MS: '300' });
  });
  afterAll(() => app.close());

  it('answers 503 in upstream\'s shape when the read models do not catch up, saying the write was saved', async () => {
    const reply = await app.request('POST', '/resource_providers', { body: { uuid: first, name: 'same-name' }, version: '1.39' });
    expect(reply.status).toBe(503);
    expect(reply.body.errors[0]).toMatchObject({ status: 503, title: 'Service Unavailable' });
    expect(reply.body.errors[0].detail).toContain('The change was saved, but the read models did not catch up with it within 300 ms');
  });

  it('refuses a second provider of the same name before the first is projected (the name guard), as upstream\'s 409', async () => {
    const reply = await app.request('POST', '/resource_providers', { body: { uuid: second, name: 'same-name' }, version: '1.39' });
    expect(reply.status).toBe(409);
    expect(reply.body.errors[0].code).toBe('placement.duplicate_name');
  });

  it('shows the saved write once a projector runs', async () => {
    const { Pool } = await import('pg');
    const pool = new Pool({ connectionString: app.databaseUrl, max: 2 });
    const projector = new AsyncProjector({ url: app.databaseUrl, read: storeReader(new PostgresEventStore(pool)), projections: ALL_PROJECTIONS });
    projector.start();
    try {
      await until('the provider is projected', async () => (await app.request('GET', `/resource_providers/${first}`)).status === 200);
      expect((await app.request('GET', `/resource_providers/${second}`)).status).toBe(404);
      const renamed = await app.request('PUT', `/resource_providers/${first}`, { body: { name: 'renamed' }, version: '1.39' });
      expect(renamed.status).toBe(200);
      expect((await app.request('GET', '/resource_providers?name=renamed')).body.resource_providers.map((p: { uuid: string }) => p.uuid)).toEqual([first]);
    } finally {
      await projector.stop();
      await pool.end();
    }
  });
});
