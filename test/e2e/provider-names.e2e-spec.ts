import { randomUUID } from 'node:crypto';
import { createApp, RunningApp } from '#placement-api/bootstrap.js';
import { loadConfig } from '#platform/config.js';
import { providerNameStream } from '#domain/index.js';
import { KurrentEventStore } from '#event-store/kurrent/kurrent-event-store.js';
import { InMemoryKurrentClient } from '#event-store/kurrent/testing/in-memory-kurrent-client.js';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { logStoreEnv } from '../support/test-app.js';

jest.setTimeout(60_000);

const HEADERS = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39', 'content-type': 'application/json' };

type Store = 'postgres, inline projections' | 'postgres, async projections' | 'kurrentdb (in-memory client)';
const STORES: Store[] = ['postgres, inline projections', 'postgres, async projections', 'kurrentdb (in-memory client)'];

function boot(store: Store, url: string, client?: InMemoryKurrentClient): Promise<RunningApp> {
  const env: Record<string, string> = { PLACEMENT_AUTH_STRATEGY: 'noauth2' };
  if (store === 'postgres, async projections') env.PLACEMENT_PROJECTIONS = 'async';
  if (store !== 'kurrentdb (in-memory client)') return createApp(loadConfig(env), url, false);
  const config = loadConfig({ ...env, ...logStoreEnv('kurrentdb') });
  return createApp(config, url, false, new KurrentEventStore(client!));
}

function caller(running: RunningApp) {
  const base = `http://127.0.0.1:${(running.app.getHttpServer().address() as { port: number }).port}`;
  return async (method: string, path: string, body?: unknown) => {
    const reply = await fetch(base + path, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await reply.text();
    return { status: reply.status, body: text ? JSON.parse(text) : undefined };
  };
}

const holderOf = async (running: RunningApp, name: string) =>
  (await running.database.eventStore.readStream(providerNameStream(name))).map((event) => [event.type, event.data.uuid]);

describe.each(STORES)('provider names are unique by their name streams, on %s', (store) => {
  let database: TestDatabase;
  let running: RunningApp;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    database = await createTestDatabase('pl_e2e');
    running = await boot(store, database.url, new InMemoryKurrentClient());
    await running.app.listen(0, '127.0.0.1');
    call = caller(running);
  });

  afterAll(async () => {
    await running?.close();
    await database?.drop();
  });

  it('refuses a taken name on create and rename with upstream\'s answers, and frees it on rename and delete', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    expect((await call('POST', '/resource_providers', { uuid: a, name: 'cn1' })).status).toBe(200);
    const dup = await call('POST', '/resource_providers', { uuid: b, name: 'cn1' });
    expect([dup.status, dup.body.errors[0].code]).toEqual([409, 'placement.duplicate_name']);
    expect(dup.body.errors[0].detail).toContain('Conflicting resource provider name: cn1 already exists.');
    expect((await call('POST', '/resource_providers', { uuid: b, name: 'cn2' })).status).toBe(200);
    const rename = await call('PUT', `/resource_providers/${b}`, { name: 'cn1' });
    expect([rename.status, rename.body.errors[0].code]).toEqual([409, 'placement.duplicate_name']);
    expect(rename.body.errors[0].detail).toContain('Conflicting resource provider cn1 already exists.');

    expect((await call('PUT', `/resource_providers/${a}`, { name: 'cn1-renamed' })).status).toBe(200);
    expect((await call('PUT', `/resource_providers/${b}`, { name: 'cn1' })).status).toBe(200);
    expect(await holderOf(running, 'cn1')).toEqual([['ProviderNameReserved', a], ['ProviderNameReleased', a], ['ProviderNameReserved', b]]);

    expect((await call('DELETE', `/resource_providers/${b}`)).status).toBe(204);
    expect((await call('POST', '/resource_providers', { uuid: c, name: 'cn1' })).status).toBe(200);
    // The deleted provider's uuid may come back, under a name of its own.
    expect((await call('POST', '/resource_providers', { uuid: b, name: 'cn1' })).status).toBe(409);
    expect((await call('POST', '/resource_providers', { uuid: b, name: 'cn2' })).status).toBe(200);
    const listed = await call('GET', '/resource_providers?name=cn1');
    expect(listed.body.resource_providers.map((p: { uuid: string }) => p.uuid)).toEqual([c]);
  });

  it('renames a to A (names that differ in case only are two names, in two streams)', async () => {
    const [x, y] = [randomUUID(), randomUUID()];
    expect((await call('POST', '/resource_providers', { uuid: x, name: 'case-a' })).status).toBe(200);
    expect((await call('PUT', `/resource_providers/${x}`, { name: 'CASE-A' })).status).toBe(200);
    expect((await call('POST', '/resource_providers', { uuid: y, name: 'case-a' })).status).toBe(200);
    expect((await call('PUT', `/resource_providers/${y}`, { name: 'CASE-A' })).status).toBe(409);
    expect((await call('GET', `/resource_providers/${x}`)).body.name).toBe('CASE-A');
    expect(await holderOf(running, 'case-a')).toEqual([['ProviderNameReserved', x], ['ProviderNameReleased', x], ['ProviderNameReserved', y]]);
  });

  it('lets exactly one of many concurrent creations of a name win; the others get the 409 and the projections go on', async () => {
    const name = `race-${randomUUID()}`;
    const replies = await Promise.all(Array.from({ length: 8 }, () => call('POST', '/resource_providers', { uuid: randomUUID(), name })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of replies.filter((x) => x.status === 409)) {
      expect(r.body.errors[0].code).toBe('placement.duplicate_name');
      expect(r.body.errors[0].detail).toContain(`Conflicting resource provider name: ${name} already exists.`);
    }
    const winner = replies.find((r) => r.status === 200)!.body.uuid;
    expect((await call('GET', `/resource_providers?name=${name}`)).body.resource_providers.map((p: { uuid: string }) => p.uuid)).toEqual([winner]);
    // A write after the race is projected and read back: nothing stalled on the losers.
    const after = randomUUID();
    expect((await call('POST', '/resource_providers', { uuid: after, name: `${name}-after` })).status).toBe(200);
    expect((await call('GET', `/resource_providers/${after}`)).status).toBe(200);
  });

  it('lets concurrent renames of two providers to one name, and a creation of it, leave it with exactly one', async () => {
    const name = `race-rename-${randomUUID()}`;
    const [p, q] = [randomUUID(), randomUUID()];
    await call('POST', '/resource_providers', { uuid: p, name: `${name}-p` });
    await call('POST', '/resource_providers', { uuid: q, name: `${name}-q` });
    const replies = await Promise.all([
      call('PUT', `/resource_providers/${p}`, { name }), call('PUT', `/resource_providers/${q}`, { name }),
      call('POST', '/resource_providers', { uuid: randomUUID(), name }),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect((await call('GET', `/resource_providers?name=${name}`)).body.resource_providers).toHaveLength(1);
  });
});
