import { randomUUID } from 'node:crypto';
import type { RunningApp } from '#placement-api/bootstrap.js';
import { EVENT_STORE, EventStore, PostgresEventStore } from '#event-store/index.js';
import { startSiblingApp, startTestApp, TestApp } from '../support/test-app.js';

/**
 * A claim whose client says the consumer is new (consumer_generation null) does not read the
 * consumer's stream first when its process has never seen it: the append expects no stream.
 * These arcs write the consumer through one process and claim through another, so the guess is
 * wrong, and must cost only a second decision on what the log holds.
 */
describe('PUT /allocations for a consumer the client says is new', () => {
  let first: TestApp;
  let second: RunningApp;
  let secondUrl: string;
  let store: EventStore;
  let provider: string;

  beforeAll(async () => {
    first = await startTestApp();
    ({ running: second, url: secondUrl } = await startSiblingApp(first));
    store = second.app.get<EventStore>(EVENT_STORE);
    provider = randomUUID();
    expect((await first.request('POST', '/resource_providers', { version: '1.39', body: { uuid: provider, name: provider } })).status).toBe(200);
    const inventories = { resource_provider_generation: 0, inventories: { VCPU: { total: 64 } } };
    expect((await first.request('PUT', `/resource_providers/${provider}/inventories`, { version: '1.39', body: inventories })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const claim = (vcpus: number, generation: number | null) => ({
    allocations: { [provider]: { resources: { VCPU: vcpus } } }, project_id: 'p', user_id: 'u', consumer_generation: generation, consumer_type: 'INSTANCE',
  });

  async function putOnSecond(consumer: string, body: object) {
    const reply = await fetch(`${secondUrl}/allocations/${consumer}`, {
      method: 'PUT', body: JSON.stringify(body),
      headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39', 'content-type': 'application/json' },
    });
    const text = await reply.text();
    return { status: reply.status, body: text ? JSON.parse(text) : undefined };
  }

  const consumerEvents = async (consumer: string) => (await store.readStream(`consumer-${consumer}`)).map((event) => event.type);

  it('claims for a new consumer without reading its stream first', async () => {
    const consumer = randomUUID();
    // The application holds the store through a Proxy (instrumentAppends): the adapter's own method is watched.
    const reads = jest.spyOn(PostgresEventStore.prototype, 'readStream');
    expect((await putOnSecond(consumer, claim(1, null))).status).toBe(204);
    expect(reads.mock.calls.filter(([stream]) => stream === `consumer-${consumer}`)).toEqual([]);
    jest.restoreAllMocks();
    expect(await consumerEvents(consumer)).toEqual(['ConsumerAllocationsReplaced']);
  });

  it('refuses a consumer that exists after all with the generation conflict, decided on the log, writing nothing', async () => {
    const consumer = randomUUID();
    expect((await first.request('PUT', `/allocations/${consumer}`, { version: '1.39', body: claim(2, null) })).status).toBe(204);
    const reply = await putOnSecond(consumer, claim(3, null));
    expect(reply.status).toBe(409);
    expect(reply.body.errors[0]).toMatchObject({ code: 'placement.concurrent_update', detail: expect.stringContaining('consumer generation conflict - expected 1 but got None') });
    expect(await consumerEvents(consumer)).toEqual(['ConsumerAllocationsReplaced']);
    const held = await first.request('GET', `/allocations/${consumer}`, { version: '1.39' });
    expect(held.body.allocations[provider].resources).toEqual({ VCPU: 2 });
  });

  it('claims again for a consumer whose allocations were removed, at the stream revision the log holds', async () => {
    const consumer = randomUUID();
    expect((await first.request('PUT', `/allocations/${consumer}`, { version: '1.39', body: claim(4, null) })).status).toBe(204);
    expect((await first.request('DELETE', `/allocations/${consumer}`, { version: '1.39' })).status).toBe(204);
    expect((await putOnSecond(consumer, claim(5, null))).status).toBe(204);
    const events = await store.readStream(`consumer-${consumer}`);
    expect(events.map((event) => [event.type, event.revision])).toEqual([['ConsumerAllocationsReplaced', 0], ['ConsumerRemoved', 1], ['ConsumerAllocationsReplaced', 2]]);
    const usages = await first.request('GET', `/resource_providers/${provider}/usages`, { version: '1.39' });
    expect(usages.body.usages.VCPU).toBe(1 + 2 + 5);
  });
});
