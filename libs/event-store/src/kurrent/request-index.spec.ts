import type { ReadAllOptions } from '@kurrent/kurrentdb-client';
import { AppendRequest, NO_STREAM, START } from '../port.js';
import { toAppendStreamRequests } from './append-mapping.js';
import { REQUEST_INDEX_PREFIX } from './event-mapping.js';
import { KurrentEventStore } from './kurrent-event-store.js';
import { InMemoryKurrentClient } from './testing/in-memory-kurrent-client.js';

/** The model, counting the records its $all reads hand out. */
class CountingClient extends InMemoryKurrentClient {
  recordsRead = 0;

  override async *readAll(options: ReadAllOptions = {}) {
    for await (const record of super.readAll(options)) {
      this.recordsRead++;
      yield record;
    }
  }
}

const event = (n: number, requestId = `other-${n}`) => ({ type: 'Happened', data: { n }, metadata: { requestId } });
const create = (stream: string, n: number, requestId?: string): AppendRequest =>
  ({ stream, expectedRevision: NO_STREAM, events: [event(n, requestId)] });

describe('the KurrentDB request index', () => {
  let client: CountingClient;
  let store: KurrentEventStore;

  beforeEach(() => {
    client = new CountingClient();
    store = new KurrentEventStore(client);
  });

  async function unrelated(count: number, from: number) {
    for (let i = 0; i < count; i++) await store.append([create(`provider-${from + i}`, from + i)]);
  }

  it('finds what a request wrote by reading its own records, not the log', async () => {
    await unrelated(300, 0);
    await store.append([create('consumer-a', 1000, 'req-a'), create('provider-a', 1001, 'req-a')]);
    await unrelated(300, 300);
    await store.append([{ stream: 'consumer-a', expectedRevision: 0, events: [event(1002, 'req-a'), event(1003, 'req-a')] }]);
    await unrelated(300, 600);

    client.recordsRead = 0;
    const found = await store.readRequest('req-a');
    expect(found.map((e) => [e.stream, e.data.n])).toEqual([['consumer-a', 1000], ['provider-a', 1001], ['consumer-a', 1002], ['consumer-a', 1003]]);
    // Each session: its index record, then its events; nothing of the 900 other appends.
    expect(client.recordsRead).toBe(6);
    client.recordsRead = 0;
    expect(await store.readRequest('req-none')).toEqual([]);
    expect(client.recordsRead).toBe(0);
  });

  it('keeps its records out of everything the port hands out', async () => {
    const first = await store.append([create('consumer-a', 1, 'req-a'), create('provider-a', 2, 'req-a')]);
    expect(Object.keys(first.revisions).sort()).toEqual(['consumer-a', 'provider-a']);
    const last = await store.append([create('provider-b', 3, 'req-b')]);
    expect(client.log.some((record) => record.streamId.startsWith(REQUEST_INDEX_PREFIX))).toBe(true);

    const all = await store.readAll(START, 100);
    expect(all.map((e) => e.data.n)).toEqual([1, 2, 3]);
    expect(await store.head()).toEqual(last.position);
    expect(all[2].position).toEqual(last.position);
    expect(await store.countEvents(START)).toBe(3);
    expect(await store.readStream(`${REQUEST_INDEX_PREFIX}req-a`)).toEqual([]);
  });

  it('writes no index for events without a request id', async () => {
    await store.append([{ stream: 'provider-a', expectedRevision: NO_STREAM, events: [{ type: 'Happened', data: { n: 1 } }] }]);
    expect(client.log.map((record) => record.streamId)).toEqual(['provider-a']);
  });

  it('reads on past a session whose records were ever found apart', async () => {
    // An index entry promising two events, the second written far later, as a server that split a session would leave it.
    await client.multiStreamAppend(toAppendStreamRequests([
      { stream: `${REQUEST_INDEX_PREFIX}req-a`, expectedRevision: 'any', events: [{ type: 'RequestAppended', data: { events: 2 }, metadata: { requestId: 'req-a' } }] },
      create('consumer-a', 1, 'req-a'),
    ]));
    await unrelated(100, 10);
    await client.multiStreamAppend(toAppendStreamRequests([create('provider-a', 2, 'req-a')]));
    expect((await store.readRequest('req-a')).map((e) => e.data.n)).toEqual([1, 2]);
  });
});
