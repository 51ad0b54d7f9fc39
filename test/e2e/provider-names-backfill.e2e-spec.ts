import { randomUUID } from 'node:crypto';
import { createApp, RunningApp } from '#placement-api/bootstrap.js';
import { loadConfig } from '#platform/config.js';
import { PROVIDER_NAMES_BACKFILLED_STREAM, providerNameStream } from '#domain/index.js';
import { EventStore, NO_STREAM } from '#event-store/index.js';
import { KurrentEventStore } from '#event-store/kurrent/kurrent-event-store.js';
import { InMemoryKurrentClient } from '#event-store/kurrent/testing/in-memory-kurrent-client.js';
import { openDatabase } from '#placement/persistence/database.js';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { logStoreEnv } from '../support/test-app.js';

jest.setTimeout(60_000);

const HEADERS = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39', 'content-type': 'application/json' };
const METADATA = { requestId: 'req-old', userId: null, projectId: null, roles: [] };
const KURRENT = logStoreEnv('kurrentdb');

/** What a writer from before the name streams appended: the provider's own events, and nothing else. */
async function writeOldFormatLog(store: EventStore, uuids: { a: string; b: string; c: string }): Promise<void> {
  const created = (uuid: string, name: string) =>
    ({ type: 'ResourceProviderCreated', data: { uuid, name, parent_provider_uuid: null, generation: 0, v: 1 }, metadata: METADATA });
  await store.append([
    { stream: `provider-${uuids.a}`, expectedRevision: NO_STREAM, events: [created(uuids.a, 'old-a')] },
    { stream: `provider-${uuids.b}`, expectedRevision: NO_STREAM, events: [created(uuids.b, 'old-b')] },
    { stream: `provider-${uuids.c}`, expectedRevision: NO_STREAM, events: [created(uuids.c, 'old-c')] },
  ]);
  await store.append([
    { stream: `provider-${uuids.b}`, expectedRevision: 0, events: [
      { type: 'ResourceProviderUpdated', data: { name: 'old-b2', parent_provider_uuid: null, generation: 0, v: 1 }, metadata: METADATA }] },
    { stream: `provider-${uuids.c}`, expectedRevision: 0, events: [
      { type: 'ResourceProviderDeleted', data: { generation: 0, v: 1 }, metadata: METADATA }] },
  ]);
}

async function call(running: RunningApp, method: string, path: string, body?: unknown) {
  const base = `http://127.0.0.1:${(running.app.getHttpServer().address() as { port: number }).port}`;
  const reply = await fetch(base + path, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await reply.text();
  return { status: reply.status, body: text ? JSON.parse(text) : undefined };
}

const history = async (store: EventStore, name: string) =>
  (await store.readStream(providerNameStream(name))).map((event) => [event.type, event.data.uuid]);

/** The proof the log holds the names of its old providers now, and refuses them to others. */
async function expectBackfilled(running: RunningApp, uuids: { a: string; b: string; c: string }) {
  const store = running.database.eventStore;
  expect(await history(store, 'old-a')).toEqual([['ProviderNameReserved', uuids.a]]);
  expect(await history(store, 'old-b2')).toEqual([['ProviderNameReserved', uuids.b]]);
  // A rename and a deletion before the change left those names free: nothing holds them.
  expect(await history(store, 'old-b')).toEqual([]);
  expect(await history(store, 'old-c')).toEqual([]);
  expect((await store.readStream(PROVIDER_NAMES_BACKFILLED_STREAM)).map((e) => e.data)).toEqual([{ providers: 2, reserved: 2, v: 1 }]);

  await running.app.listen(0, '127.0.0.1');
  const dup = await call(running, 'POST', '/resource_providers', { uuid: randomUUID(), name: 'old-a' });
  expect([dup.status, dup.body.errors[0].code]).toEqual([409, 'placement.duplicate_name']);
  expect(dup.body.errors[0].detail).toContain('Conflicting resource provider name: old-a already exists.');
  const created = await call(running, 'POST', '/resource_providers', { uuid: randomUUID(), name: 'old-c' });
  expect(created.status).toBe(200);
  expect((await call(running, 'PUT', `/resource_providers/${created.body.uuid}`, { name: 'old-b2' })).status).toBe(409);
  // The old provider renames itself the new way: its backfilled name is released.
  expect((await call(running, 'PUT', `/resource_providers/${uuids.a}`, { name: 'new-a' })).status).toBe(200);
  expect((await call(running, 'POST', '/resource_providers', { uuid: randomUUID(), name: 'old-a' })).status).toBe(200);
}

describe('a PostgreSQL log written before the name streams', () => {
  let database: TestDatabase;
  const uuids = { a: randomUUID(), b: randomUUID(), c: randomUUID() };

  beforeAll(async () => {
    database = await createTestDatabase('pl_e2e');
    const old = await openDatabase(database.url, 2);
    await writeOldFormatLog(old.eventStore, uuids);
    await old.close();
  });

  afterAll(async () => database?.drop());

  it('gets its names once, from two processes starting at once, and then refuses a duplicate', async () => {
    const config = loadConfig({ PLACEMENT_AUTH_STRATEGY: 'noauth2' });
    const both = await Promise.all([createApp(config, database.url, false), createApp(config, database.url, false)]);
    try {
      // One marker and one reservation per name: the second process waited, then found it done.
      await expectBackfilled(both[0], uuids);
    } finally {
      for (const running of both) await running.close();
    }
  });

  it('is not looked at again on the next start', async () => {
    const running = await createApp(loadConfig({ PLACEMENT_AUTH_STRATEGY: 'noauth2' }), database.url, false);
    try {
      expect(await running.database.eventStore.readStream(PROVIDER_NAMES_BACKFILLED_STREAM)).toHaveLength(1);
      expect(await history(running.database.eventStore, 'old-a')).toHaveLength(3);
    } finally {
      await running.close();
    }
  });
});

describe('a KurrentDB log (in-memory client) written before the name streams, its read models not yet projected', () => {
  it('gets its names from the log after the checkpoint, and then refuses a duplicate', async () => {
    const database = await createTestDatabase('pl_e2e');
    const client = new InMemoryKurrentClient();
    const uuids = { a: randomUUID(), b: randomUUID(), c: randomUUID() };
    await writeOldFormatLog(new KurrentEventStore(client), uuids);
    const running = await createApp(loadConfig({ PLACEMENT_AUTH_STRATEGY: 'noauth2', ...KURRENT }), database.url, false, new KurrentEventStore(client));
    try {
      await expectBackfilled(running, uuids);
    } finally {
      await running.close();
      await database.drop();
    }
  });
});

describe('an empty log', () => {
  it('is left empty at start, so that an import can still fill it', async () => {
    const database = await createTestDatabase('pl_e2e');
    const running = await createApp(loadConfig({ PLACEMENT_AUTH_STRATEGY: 'noauth2' }), database.url, false);
    try {
      const { rows } = await running.database.pool.query('SELECT count(*)::int AS n FROM es_events');
      expect(rows[0].n).toBe(0);
    } finally {
      await running.close();
      await database.drop();
    }
  });
});
