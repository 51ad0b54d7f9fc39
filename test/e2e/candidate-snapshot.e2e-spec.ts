import { randomUUID } from 'node:crypto';
import { createApp, RunningApp } from '#placement-api/bootstrap.js';
import { loadConfig } from '#platform/config.js';
import { CandidateIndexService } from '#placement/candidates/candidate-index.service.js';
import { startTestApp, TestApp } from '../support/test-app.js';

jest.setTimeout(120_000);

const QUERIES = [
  'resources=VCPU:1',
  'resources=VCPU:2,MEMORY_MB:512,DISK_GB:10',
  'resources=VCPU:1&required=CUSTOM_FAST',
  'resources=VCPU:1&member_of=in:AGG_A_UUID',
  'resources1=VCPU:1&resources2=CUSTOM_NIC:1&group_policy=none',
  'resources=DISK_GB:100&limit=3',
];

/**
 * A process that starts from a stored snapshot and reads only the log after it must answer as
 * one that replayed the whole log, and see every write acknowledged after the snapshot.
 */
describe('an API started from a candidate snapshot and the log after it', () => {
  let writer: TestApp;
  const started: RunningApp[] = [];
  const aggregate = randomUUID();

  async function call(method: string, path: string, body?: unknown, status = [200, 204]) {
    const reply = await writer.request(method, path, { version: '1.39', body });
    expect({ path, status: status.includes(reply.status) ? 'ok' : reply.status, body: reply.status >= 400 ? reply.body : undefined })
      .toEqual({ path, status: 'ok', body: undefined });
    return reply.body as Record<string, any>;
  }

  async function provider(name: string, inventories: Record<string, number>, extra: { parent?: string; traits?: string[]; aggregates?: string[] } = {}) {
    const uuid = randomUUID();
    await call('POST', '/resource_providers', { uuid, name, ...(extra.parent ? { parent_provider_uuid: extra.parent } : {}) });
    let generation = 0;
    const inventoryBody = Object.fromEntries(Object.entries(inventories).map(([rc, total]) => [rc, { total }]));
    generation = (await call('PUT', `/resource_providers/${uuid}/inventories`, { resource_provider_generation: generation, inventories: inventoryBody })).resource_provider_generation;
    if (extra.traits) generation = (await call('PUT', `/resource_providers/${uuid}/traits`, { resource_provider_generation: generation, traits: extra.traits })).resource_provider_generation;
    if (extra.aggregates) await call('PUT', `/resource_providers/${uuid}/aggregates`, { resource_provider_generation: generation, aggregates: extra.aggregates });
    return uuid;
  }

  const claim = (consumer: string, allocations: Record<string, Record<string, number>>, generation: number | null) =>
    call('PUT', `/allocations/${consumer}`, {
      allocations: Object.fromEntries(Object.entries(allocations).map(([rp, resources]) => [rp, { resources }])),
      project_id: 'p1', user_id: 'u1', consumer_generation: generation, consumer_type: 'INSTANCE',
    });

  async function startAnother(): Promise<{ url: string; index: CandidateIndexService }> {
    const running = await createApp(loadConfig({ PLACEMENT_AUTH_STRATEGY: 'noauth2' }), writer.databaseUrl, false);
    started.push(running);
    await running.app.listen(0, '127.0.0.1');
    return { url: `http://127.0.0.1:${(running.app.getHttpServer().address() as { port: number }).port}`, index: running.app.get(CandidateIndexService) };
  }

  async function answers(url: string): Promise<unknown[]> {
    return Promise.all(QUERIES.map(async (query) => {
      const reply = await fetch(`${url}/allocation_candidates?${query.replace('AGG_A_UUID', aggregate)}`, {
        headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39' },
      });
      expect(reply.status).toBe(200);
      return reply.json();
    }));
  }

  beforeAll(async () => {
    writer = await startTestApp();
  });

  afterAll(async () => {
    for (const running of started) await running.close();
    await writer?.close();
  });

  it('answers as a full replay does, with the writes after the snapshot in', async () => {
    await call('PUT', '/traits/CUSTOM_FAST', undefined, [201, 204]);
    await call('POST', '/resource_classes', { name: 'CUSTOM_NIC' }, [201]);
    const cn1 = await provider('cn1', { VCPU: 8, MEMORY_MB: 4096 }, { traits: ['CUSTOM_FAST'], aggregates: [aggregate] });
    const cn2 = await provider('cn2', { VCPU: 4, MEMORY_MB: 2048, DISK_GB: 500 });
    await provider('nic1', { CUSTOM_NIC: 4 }, { parent: cn1 });
    await provider('shared-disk', { DISK_GB: 1000 }, { traits: ['MISC_SHARES_VIA_AGGREGATE'], aggregates: [aggregate] });
    const leaving = randomUUID();
    await claim(randomUUID(), { [cn1]: { VCPU: 2, MEMORY_MB: 1024 } }, null);
    await claim(leaving, { [cn2]: { VCPU: 1, DISK_GB: 50 } }, null);

    // The writer's own view, stored as the background writer would once enough events came.
    expect(await writer.running.app.get(CandidateIndexService).snapshotNow()).toBe(true);

    // After the snapshot: a new provider, a consumer leaving, a new trait on a provider, a claim.
    const cn3 = await provider('cn3', { VCPU: 16, MEMORY_MB: 8192, DISK_GB: 200 }, { aggregates: [aggregate] });
    await call('DELETE', `/allocations/${leaving}`);
    await call('PUT', `/resource_providers/${cn2}/traits`, { resource_provider_generation: 2, traits: ['CUSTOM_FAST'] });
    await claim(randomUUID(), { [cn3]: { VCPU: 15 } }, null);

    const fromSnapshot = await startAnother();
    expect(fromSnapshot.index.startedFrom.snapshotEvents).toBeGreaterThan(0);
    expect(fromSnapshot.index.startedFrom.logEvents).toBeGreaterThan(0);

    const stored = await writer.running.database.pool.query('DELETE FROM rm_candidate_snapshots');
    expect(stored.rowCount).toBe(1);
    const replayed = await startAnother();
    expect(replayed.index.startedFrom).toEqual({ snapshotEvents: 0, logEvents: fromSnapshot.index.startedFrom.snapshotEvents + fromSnapshot.index.startedFrom.logEvents });

    const expected = await answers(replayed.url);
    expect(await answers(fromSnapshot.url)).toEqual(expected);
    expect(await answers(writer.baseUrl)).toEqual(expected);
    // The writes after the snapshot are in: cn3 (VCPU 16, 15 used) cannot give 2 VCPU, and cn2 now has the trait.
    const fast = (expected[2] as { provider_summaries: Record<string, unknown> }).provider_summaries;
    expect(Object.keys(fast)).toEqual(expect.arrayContaining([cn1, cn2]));
    const two = (expected[1] as { allocation_requests: { allocations: Record<string, unknown> }[] }).allocation_requests;
    expect(two.some((request) => cn3 in request.allocations)).toBe(false);
  });

  it('sees a write acknowledged after it started, on its next query', async () => {
    const fromSnapshot = started[0];
    const url = `http://127.0.0.1:${(fromSnapshot.app.getHttpServer().address() as { port: number }).port}`;
    const big = await provider('big', { VCPU: 64 });
    const reply = await fetch(`${url}/allocation_candidates?resources=VCPU:40`, { headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39' } });
    const body = (await reply.json()) as { allocation_requests: { allocations: Record<string, unknown> }[] };
    expect(body.allocation_requests.map((request) => Object.keys(request.allocations))).toEqual([[big]]);
  });

  it('writes snapshots in the background as the log grows, one per position however many processes follow it', async () => {
    const pool = writer.running.database.pool;
    await pool.query('DELETE FROM rm_candidate_snapshots');
    const followers = [writer.running.app.get(CandidateIndexService), started[0].app.get(CandidateIndexService), started[1].app.get(CandidateIndexService)];
    for (const follower of followers) follower.snapshotEvery = 3;
    await provider('grown', { VCPU: 2 });
    const before = Date.now();
    // Each process reads the new events on its next query, then stores a snapshot after answering it.
    await Promise.all([writer.baseUrl, ...started.map((running) => `http://127.0.0.1:${(running.app.getHttpServer().address() as { port: number }).port}`)]
      .map((url) => fetch(`${url}/allocation_candidates?resources=VCPU:1`, { headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39' } })));
    let rows: { events: string }[] = [];
    while (rows.length === 0 && Date.now() - before < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      rows = (await pool.query<{ events: string }>('SELECT events::text FROM rm_candidate_snapshots')).rows;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    rows = (await pool.query<{ events: string }>('SELECT events::text FROM rm_candidate_snapshots')).rows;
    const head = (await pool.query<{ n: string }>('SELECT count(*)::text AS n FROM es_events')).rows[0].n;
    // The three views stand at the same position: whichever process won, one row, of the whole log.
    expect(rows).toEqual([{ events: head }]);
    for (const follower of followers) follower.snapshotEvery = 100_000;
  });
});
