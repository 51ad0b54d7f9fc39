import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { createApp, RunningApp } from '#placement-api/bootstrap.js';
import { loadConfig } from '#platform/config.js';
import { createLogger } from '#platform/logger.js';
import { WrongExpectedRevision } from '#event-store/index.js';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { startServerProcess } from '../support/server-process.js';
import { sample } from '../support/exposition.js';
import { startTestApp, TestApp } from '../support/test-app.js';

/** Every (method, path) in Fastify's route tree, as printRoutes draws it (HEAD is the GET's automatic twin). */
function registeredRoutes(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│├└─\s]*)(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line.trimEnd());
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    stack.push(match[2]);
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push(`${method} ${stack.join('')}`);
  }
  return routes;
}

const rpUuid = 'c8e1f6a2-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

describe('operations: metrics, health, readiness, OpenAPI', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  const scrape = async () => (await app.request('GET', '/metrics', { token: null })).text;

  it('answers /healthz without a token and outside microversion handling', async () => {
    const reply = await app.request('GET', '/healthz', { token: null, version: '9.99' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok' });
    expect(reply.headers.get('openstack-api-version')).toBeNull();
    expect(reply.headers.get('x-openstack-request-id')).toMatch(/^req-/);
  });

  it('answers /readyz 200 while the database answers and the read models are current', async () => {
    const reply = await app.request('GET', '/readyz', { token: null });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ready' });
  });

  it('answers /readyz 503 with a reason while a projection is behind, and the lag gauge shows it', async () => {
    const metrics = app.running.operations.metrics;
    metrics.setProjectionLag('providers', 7);
    try {
      const reply = await app.request('GET', '/readyz', { token: null });
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ status: 'not ready', reason: 'projections' });
      expect(sample(await scrape(), 'placement_projection_lag_events', { projection: 'providers' })).toBe(7);
    } finally {
      metrics.setProjectionLag('providers', 0);
    }
    expect((await app.request('GET', '/readyz', { token: null })).status).toBe(200);
    expect(sample(await scrape(), 'placement_projection_lag_events', { projection: 'providers' })).toBe(0);
  });

  it('counts requests and their latency by route pattern, method and status', async () => {
    const before = await scrape();
    const show = { method: 'GET', route: '/resource_providers/:uuid', status: '404' };
    const unauthorized = { method: 'GET', route: '/resource_providers', status: '401' };
    await app.request('GET', `/resource_providers/${rpUuid}`);
    await app.request('GET', '/resource_providers/11111111-2222-3333-4444-555555555555');
    await app.request('GET', '/resource_providers', { token: null });
    await app.request('GET', '/no/such/path/anywhere');
    const after = await scrape();

    expect(after).toMatch(/^# TYPE placement_http_requests_total counter$/m);
    expect(sample(after, 'placement_http_requests_total', show) - sample(before, 'placement_http_requests_total', show)).toBe(2);
    expect(sample(after, 'placement_http_request_duration_seconds_count', show)
      - sample(before, 'placement_http_request_duration_seconds_count', show)).toBe(2);
    expect(sample(after, 'placement_http_request_duration_seconds_sum', show)).toBeGreaterThan(0);
    expect(sample(after, 'placement_http_requests_total', unauthorized) - sample(before, 'placement_http_requests_total', unauthorized)).toBe(1);
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(sample(after, 'placement_http_requests_total', unmatched) - sample(before, 'placement_http_requests_total', unmatched)).toBe(1);
    // Labels are patterns: no concrete id or unknown path ever becomes a series.
    expect(after).not.toContain(rpUuid);
    expect(after).not.toContain('/no/such/path');
  });

  it('counts the requests in progress, and none stays counted once answered, refused or cut off by its client', async () => {
    const inProgress = async () => {
      const text = await scrape();
      return [sample(text, 'placement_http_requests_in_progress'), sample(text, 'placement_long_answers_in_progress')];
    };
    // Each request is counted until its answer's socket closes (loop-turns.ts): a leak would make every long answer wait.
    await Promise.all([
      app.request('GET', '/resource_providers'),
      app.request('GET', '/resource_providers', { token: null }),
      app.request('GET', '/no/such/path'),
      app.request('POST', '/resource_providers', { body: '{"name": ' }),
      app.request('GET', '/allocation_candidates?resources=VCPU:1'),
      app.request('GET', '/healthz', { token: null }),
    ]);
    // A claim whose client hangs up halfway through its body.
    const cut = connect(Number(new URL(app.baseUrl).port), '127.0.0.1');
    await new Promise((resolve) => cut.once('connect', resolve));
    cut.write(`PUT /allocations/${randomUUID()} HTTP/1.1\r\nhost: x\r\nx-auth-token: admin\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"allocations"`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    cut.destroy();
    // The scrape itself is the one in progress.
    const deadline = Date.now() + 2000;
    let counted = await inProgress();
    while (counted[0] !== 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      counted = await inProgress();
    }
    expect(counted).toEqual([1, 0]);
  });

  it('times event store appends and counts their conflicts through the store the handlers use', async () => {
    const before = await scrape();
    const created = await app.request('POST', '/resource_providers', { version: '1.20', body: { name: 'metered', uuid: rpUuid } });
    expect(created.status).toBe(200);
    await expect(app.running.database.eventStore.append([
      { stream: `provider-${rpUuid}`, expectedRevision: 41, events: [{ type: 'Nothing', data: {} }] },
    ])).rejects.toBeInstanceOf(WrongExpectedRevision);
    const after = await scrape();

    const delta = (name: string, labels?: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('placement_event_store_append_duration_seconds_count', { outcome: 'ok' })).toBe(1);
    // A creation appends the provider's event and its name's reservation, in one append.
    expect(delta('placement_event_store_appended_events_total')).toBe(2);
    expect(delta('placement_event_store_append_conflicts_total')).toBe(1);
    expect(delta('placement_event_store_append_duration_seconds_count', { outcome: 'conflict' })).toBe(1);
  });

  it('counts the transactions appends arriving together shared, and the appends they carried', async () => {
    const before = await scrape();
    // The first is written at once; the four arriving while it is share the next transaction.
    const streams = Array.from({ length: 5 }, () => `shared-${randomUUID()}`);
    await Promise.all(streams.map((stream) => app.running.database.eventStore.append([
      { stream, expectedRevision: -1, events: [{ type: 'Nothing', data: {} }] },
    ])));
    const after = await scrape();
    const delta = (name: string, labels?: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('placement_event_store_shared_transactions_total', { outcome: 'together' })).toBe(1);
    expect(delta('placement_event_store_shared_appends_total')).toBe(4);
    expect(delta('placement_event_store_shared_transactions_total', { outcome: 'fell_back' })).toBe(0);
  });

  it('exposes the allocation candidates histograms for the candidates engine to record into', async () => {
    const before = await scrape();
    app.running.operations.metrics.startCandidatesQuery()(12);
    const after = await scrape();
    expect(sample(after, 'placement_allocation_candidates_query_duration_seconds_count')
      - sample(before, 'placement_allocation_candidates_query_duration_seconds_count')).toBe(1);
    expect(sample(after, 'placement_allocation_candidates_result_size_bucket', { le: '25' })
      - sample(before, 'placement_allocation_candidates_result_size_bucket', { le: '25' })).toBe(1);
    expect(sample(after, 'placement_allocation_candidates_result_size_bucket', { le: '10' })
      - sample(before, 'placement_allocation_candidates_result_size_bucket', { le: '10' })).toBe(0);
  });

  it('counts the round trips to PostgreSQL, so a bench can say how many a write costs', async () => {
    // A scrape reads the log's tail for the capacity series: its own statements are measured first.
    const first = sample(await scrape(), 'placement_database_statements_total');
    const before = sample(await scrape(), 'placement_database_statements_total');
    const scrapeCost = before - first;
    const create = async () => {
      const uuid = randomUUID();
      expect((await app.request('POST', '/resource_providers', { body: { uuid, name: `counted-${uuid}` } })).status).toBe(201);
    };
    // The first create may PREPARE its statements on its connection, in a round trip of their own.
    await create();
    const warmed = sample(await scrape(), 'placement_database_statements_total');
    await create();
    // BEGIN, the append, the projections and the COMMIT in one message.
    expect(sample(await scrape(), 'placement_database_statements_total') - warmed - scrapeCost).toBe(1);
    expect(warmed - before - scrapeCost).toBeGreaterThanOrEqual(1);
  });

  it('serves the Prometheus text format, with the process metrics', async () => {
    const reply = await app.request('GET', '/metrics', { token: null });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(reply.text).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('documents every route Fastify registered, and every upstream route, in /openapi.json', async () => {
    expect((await app.request('GET', '/openapi.json', { token: null })).status).toBe(401);
    const reply = await app.request('GET', '/openapi.json');
    expect(reply.status).toBe(200);
    const document = reply.body;
    expect(document.openapi).toBe('3.1.0');
    const documented = new Set(Object.entries(document.paths as Record<string, object>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, ':')}`)));

    const registered = registeredRoutes(app.running.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false }));
    expect(registered).toEqual(expect.arrayContaining(['GET /resource_providers/:uuid', 'GET /healthz', 'GET /openapi.json']));
    const missing = registered.map((route) => route.replace(/:[^/]+/g, ':')).filter((route) => !documented.has(route));
    expect(missing).toEqual([]);

    for (const route of ['POST /allocations', 'GET /allocation_candidates', 'POST /reshaper', 'GET /usages', 'DELETE /resource_providers/:/traits']) {
      expect(documented).toContain(route);
    }
    expect(document.paths['/resource_providers/{uuid}/aggregates'].get['x-openstack-microversion']).toEqual({ min: '1.1', max: '1.39' });
    expect(document.paths['/healthz'].get.security).toEqual([]);
  });
});

describe('operations: readiness when the database is gone', () => {
  let db: TestDatabase;
  let running: RunningApp;
  beforeAll(async () => {
    db = await createTestDatabase('pl_e2e');
    running = await createApp(loadConfig({ PORT: '0' }), db.url, false);
    await running.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await running.app.close();
    await db.drop();
  });

  const base = () => `http://127.0.0.1:${(running.app.getHttpServer().address() as { port: number }).port}`;

  it('answers /readyz 503 while a read-model migration of this build is not applied', async () => {
    const { rows } = await running.database.pool.query<{ id: number; timestamp: string; name: string }>(
      'DELETE FROM rm_migrations WHERE id = (SELECT max(id) FROM rm_migrations) RETURNING id, timestamp, name');
    try {
      const reply = await fetch(`${base()}/readyz`);
      expect(reply.status).toBe(503);
      expect(await reply.json()).toEqual({ status: 'not ready', reason: 'migrations' });
    } finally {
      await running.database.pool.query('INSERT INTO rm_migrations (id, timestamp, name) VALUES ($1, $2, $3)', [rows[0].id, rows[0].timestamp, rows[0].name]);
    }
    expect((await fetch(`${base()}/readyz`)).status).toBe(200);
  });

  it('answers /readyz 503 with the reason once the pool is closed, while /healthz stays 200', async () => {
    await running.database.close();
    const reply = await fetch(`${base()}/readyz`);
    expect(reply.status).toBe(503);
    const body = (await reply.json()) as { status: string; reason: string; checks: Record<string, string> };
    expect(body).toEqual({ status: 'not ready', reason: 'database' });
    expect((await fetch(`${base()}/healthz`)).status).toBe(200);
  });
});

describe('operations: structured logs', () => {
  let db: TestDatabase;
  let running: RunningApp;
  let base: string;
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  beforeAll(async () => {
    db = await createTestDatabase('pl_e2e');
    running = await createApp(loadConfig({ PORT: '0' }), db.url, createLogger('debug', sink));
    await running.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(running.app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await running.close();
    await db.drop();
  });

  it('writes one JSON line per request: time, level, request id, method, route, status, duration, user and project', async () => {
    const reply = await fetch(`${base}/resource_providers/${rpUuid}`, { headers: { 'x-auth-token': 'admin' } });
    expect(reply.status).toBe(404);
    const requestId = reply.headers.get('x-openstack-request-id');
    const line = lines.find((entry) => entry.request_id === requestId);
    expect(line).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      service: 'placement-ledger',
      msg: 'request',
      request_id: requestId,
      method: 'GET',
      route: '/resource_providers/:uuid',
      url: `/resource_providers/${rpUuid}`,
      status: 404,
      duration_ms: expect.any(Number),
      user_id: 'admin',
      project_id: 'admin',
    });
    expect(line!.duration_ms as number).toBeGreaterThan(0);
  });

  it('logs probes at debug, and the app\'s own messages as JSON too', async () => {
    const reply = await fetch(`${base}/healthz`);
    const requestId = reply.headers.get('x-openstack-request-id');
    expect(lines.find((entry) => entry.request_id === requestId)).toMatchObject({ level: 'debug', route: '/healthz', status: 200 });
    expect(lines).toContainEqual(expect.objectContaining({ level: 'debug', context: 'RouterExplorer', msg: expect.stringContaining('/healthz') }));
  });
});

describe('operations: the built server process', () => {
  let db: TestDatabase;
  beforeAll(async () => { db = await createTestDatabase('pl_e2e'); });
  afterAll(async () => db.drop());

  /** Holds es_streams locked, so an append (and the request making it) waits until release. */
  async function lockTheLog(): Promise<{ waiters(): Promise<number>; release(): Promise<void> }> {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query('LOCK TABLE es_streams IN ACCESS EXCLUSIVE MODE');
    return {
      waiters: async () => Number((await client.query(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0].n),
      release: async () => { await client.query('COMMIT'); await client.end(); },
    };
  }

  const until = async (condition: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + 10_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((done) => setTimeout(done, 50));
    }
  };
  const refused = (url: string) => fetch(url).then(() => false, () => true);
  const createProvider = (url: string, name: string) => fetch(`${url}/resource_providers`, {
    method: 'POST', headers: { 'x-auth-token': 'admin', 'content-type': 'application/json' }, body: JSON.stringify({ name }),
  });

  it('writes a lone request\'s log line to stdout within a second, though it fills no batch of lines', async () => {
    const server = await startServerProcess({ DATABASE_URL: db.url });
    try {
      const reply = await fetch(`${server.url}/resource_providers?name=lone-line`, { headers: { 'x-auth-token': 'admin' } });
      expect(reply.status).toBe(200);
      const answered = Date.now();
      const line = () => server.output().split('\n').find((text) => text.includes('"url":"/resource_providers?name=lone-line"'));
      await until(async () => line() !== undefined, 'the request\'s log line');
      expect(Date.now() - answered).toBeLessThan(1000);
      expect(JSON.parse(line()!)).toMatchObject({ level: 'info', msg: 'request', method: 'GET', route: '/resource_providers', status: 200 });
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('on SIGTERM refuses new connections, finishes the in-flight request, then exits 0', async () => {
    const server = await startServerProcess({ DATABASE_URL: db.url, PLACEMENT_SHUTDOWN_GRACE_SECONDS: '20' });
    const lock = await lockTheLog();
    const slow = createProvider(server.url, 'in-flight');
    await until(async () => (await lock.waiters()) === 1, 'the request to wait on the lock');

    const exited = server.stop();
    await until(() => refused(`${server.url}/healthz`), 'the listener to close');
    await new Promise((done) => setTimeout(done, 300));
    expect(server.child.exitCode).toBeNull();
    await lock.release();

    const reply = await slow;
    expect(reply.status).toBe(201);
    expect(reply.headers.get('connection')).toBe('close');
    expect(await exited).toBe(0);
    const log = server.output();
    expect(log.indexOf('SIGTERM: finishing in-flight requests')).toBeGreaterThan(-1);
    expect(log.indexOf('"status":201')).toBeGreaterThan(log.indexOf('SIGTERM'));
  }, 60_000);

  it('stops waiting after PLACEMENT_SHUTDOWN_GRACE_SECONDS, cutting what is still in flight', async () => {
    const server = await startServerProcess({ DATABASE_URL: db.url, PLACEMENT_SHUTDOWN_GRACE_SECONDS: '1' });
    const lock = await lockTheLog();
    try {
      const stuck = createProvider(server.url, 'stuck').then(() => 'answered', () => 'cut');
      await until(async () => (await lock.waiters()) === 1, 'the request to wait on the lock');
      const started = Date.now();
      expect(await server.stop()).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(await stuck).toBe('cut');
      expect(server.output()).toContain('requests still in flight at the end of the shutdown grace period');
    } finally {
      await lock.release();
    }
  }, 60_000);

  it('refuses to start on a wrong LOG_LEVEL or PLACEMENT_SHUTDOWN_GRACE_SECONDS, naming the variable', async () => {
    await expect(startServerProcess({ DATABASE_URL: db.url, LOG_LEVEL: 'loud' }))
      .rejects.toThrow('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not \\"loud\\"');
    await expect(startServerProcess({ DATABASE_URL: db.url, PLACEMENT_SHUTDOWN_GRACE_SECONDS: 'soon' }))
      .rejects.toThrow('PLACEMENT_SHUTDOWN_GRACE_SECONDS must be an integer from 0 to 3600, not \\"soon\\"');
  }, 30_000);
});
