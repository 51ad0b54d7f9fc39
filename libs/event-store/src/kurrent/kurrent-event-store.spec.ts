import { UnsupportedError } from '@kurrent/kurrentdb-client';
import { describeEventStoreContract } from '../contract/event-store.contract.js';
import { CONTRACT_LOOKUPS } from '../contract/read-side.contract.js';
import { NO_STREAM, START, WrongExpectedRevision } from '../port.js';
import { KurrentCapabilityError } from './capabilities.js';
import { KurrentEventStore } from './kurrent-event-store.js';
import { InMemoryKurrentClient } from './testing/in-memory-kurrent-client.js';

// The contract against a model of the client: it proves the adapter's translation layer, not
// KurrentDB's behaviour; kurrent-event-store.int-spec.ts runs the same suite on a real server.
describeEventStoreContract('KurrentDB adapter over an in-memory model of the client', async () => {
  const store = new KurrentEventStore(new InMemoryKurrentClient(), { retryDelayMs: 5, lookups: CONTRACT_LOOKUPS });
  return { store, close: () => store.close() };
});

describe('KurrentEventStore', () => {
  let client: InMemoryKurrentClient;
  let store: KurrentEventStore;
  const event = (n: number) => ({ type: 'Happened', data: { n }, metadata: { requestId: `r${n}`, roles: ['admin'], projectId: null } });

  beforeEach(() => {
    client = new InMemoryKurrentClient();
    store = new KurrentEventStore(client, { url: 'kurrentdb://127.0.0.1:2113?tls=false' });
  });

  it('writes all streams of an append in one session', async () => {
    await store.append([
      { stream: 'consumer-1', expectedRevision: NO_STREAM, events: [event(1)] },
      { stream: 'provider-1', expectedRevision: 'any', events: [event(2), event(3)] },
    ]);
    expect(client.sessions).toBe(1);
  });

  it('does not call the server for an empty append', async () => {
    await expect(store.append([])).resolves.toEqual({ position: START, revisions: {} });
    expect(client.sessions).toBe(0);
  });

  it('stores roles, nulls and numbers in metadata and reads them back', async () => {
    await store.append([{ stream: 'provider-1', expectedRevision: NO_STREAM, events: [event(1)] }]);
    const [read] = await store.readStream('provider-1');
    expect(read.metadata).toEqual({ requestId: 'r1', roles: ['admin'], projectId: null });
    expect(read.recordedAt).toBeInstanceOf(Date);
  });

  it('reads a stream that does not exist as empty, and from past its end as empty', async () => {
    expect(await store.readStream('provider-none')).toEqual([]);
    await store.append([{ stream: 'provider-1', expectedRevision: NO_STREAM, events: [event(1)] }]);
    expect(await store.readStream('provider-1', 1)).toEqual([]);
  });

  it('reads $all strictly after a position, without system or foreign events', async () => {
    const first = await store.append([{ stream: 'a-1', expectedRevision: NO_STREAM, events: [event(1)] }]);
    client.writeRaw('$$a-1', '$metadata', { $maxAge: 10 });
    client.writeRaw('$scavenges', 'ScavengeStarted', { id: 's' });
    client.writeRaw('other-app', 'Thing', 'a bare string');
    await store.append([{ stream: 'a-1', expectedRevision: 0, events: [event(2)] }]);
    expect((await store.readAll(START, 100)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
    expect((await store.readAll(first.position, 100)).map((e) => e.data)).toEqual([{ n: 2 }]);
  });

  it('fills a page past dropped events and stops at the limit', async () => {
    for (let n = 1; n <= 4; n++) {
      await store.append([{ stream: `a-${n}`, expectedRevision: NO_STREAM, events: [event(n)] }]);
      client.writeRaw(`$system-${n}`, 'Noise', {});
    }
    expect((await store.readAll(START, 3)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const second = (await store.readAll(START, 2))[1].position;
    expect((await store.readAll(second, 10)).map((e) => e.data)).toEqual([{ n: 3 }, { n: 4 }]);
  });

  it('translates a lost race in any stream of a session and writes nothing', async () => {
    await store.append([{ stream: 'provider-1', expectedRevision: NO_STREAM, events: [event(1)] }]);
    const race = store.append([
      { stream: 'consumer-1', expectedRevision: NO_STREAM, events: [event(2)] },
      { stream: 'provider-1', expectedRevision: NO_STREAM, events: [event(3)] },
    ]);
    await expect(race).rejects.toEqual(new WrongExpectedRevision('provider-1', NO_STREAM));
    expect(client.log.filter((r) => r.streamId === 'consumer-1')).toHaveLength(0);
  });

  it('refuses to start on a server without multi-stream append', async () => {
    client.multiStreamAppend = () => Promise.reject(new UnsupportedError('multiStreamAppend', '25.1'));
    await expect(store.assertCapabilities()).rejects.toBeInstanceOf(KurrentCapabilityError);
    await expect(store.assertCapabilities()).rejects.toThrow(/^KurrentDB at kurrentdb:\/\/127\.0\.0\.1:2113\?tls=false has no atomic multi-stream append/);
  });

  it('passes the capability check on a server that runs append sessions', async () => {
    await expect(store.assertCapabilities()).resolves.toBeUndefined();
  });
});
