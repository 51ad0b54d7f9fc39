import { LogPosition, NO_STREAM, RecordedEvent, START, Subscription } from '../port.js';
import { CatchUpHandlers, subscribeToAllFrom } from './kurrent-subscription.js';
import { KurrentEventStore } from './kurrent-event-store.js';
import { InMemoryKurrentClient } from './testing/in-memory-kurrent-client.js';

const until = async (condition: () => boolean) => {
  const deadline = Date.now() + 2000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(condition()).toBe(true);
};

describe('KurrentDB catch-up subscription to $all', () => {
  let client: InMemoryKurrentClient;
  let store: KurrentEventStore;
  let subscription: Subscription | undefined;
  const calls: Array<{ events: number[] } | { checkpoint: bigint } | { error: string; resumeFrom: bigint }> = [];
  const handlers: CatchUpHandlers = {
    onEvents: async (events: RecordedEvent[]) => { calls.push({ events: events.map((e) => (e.data as { n: number }).n) }); },
    onCheckpoint: async (position: LogPosition) => { calls.push({ checkpoint: position.prepare }); },
    onError: (error, resumeFrom) => { calls.push({ error: (error as Error).message, resumeFrom: resumeFrom.prepare }); },
  };
  const write = (n: number) => store.append([{ stream: `s-${n}`, expectedRevision: NO_STREAM, events: [{ type: 'Happened', data: { n } }] }]);
  const delivered = () => calls.flatMap((call) => ('events' in call ? call.events : []));

  beforeEach(() => {
    client = new InMemoryKurrentClient();
    store = new KurrentEventStore(client);
    calls.length = 0;
  });
  afterEach(async () => subscription?.close());

  it('delivers the backlog and then live events, strictly after the start position, in batches', async () => {
    const first = await write(1);
    for (let n = 2; n <= 6; n++) await write(n);
    client.writeRaw('$$s-2', '$metadata', {});
    subscription = subscribeToAllFrom(client, first.position, handlers, { retryDelayMs: 5 });
    await until(() => delivered().length === 5);
    await write(7);
    await until(() => delivered().length === 6);
    expect(delivered()).toEqual([2, 3, 4, 5, 6, 7]);
    expect(calls[0]).toEqual({ events: [2, 3, 4, 5, 6] });
  });

  it('reports a checkpoint past filtered-out events only after the events before it were handled', async () => {
    await write(1);
    for (let i = 0; i < 32; i++) client.writeRaw(`$system-${i}`, '$noise', {});
    await write(2);
    const lastSystem = client.log[32].position;
    subscription = subscribeToAllFrom(client, START, handlers, { retryDelayMs: 5 });
    await until(() => delivered().length === 2);
    expect(calls).toEqual([{ events: [1] }, { checkpoint: lastSystem }, { events: [2] }]);
  });

  it('subscribes again after a dropped connection, from the last handled event, without repeating it', async () => {
    await write(1);
    subscription = subscribeToAllFrom(client, START, handlers, { retryDelayMs: 5 });
    await until(() => delivered().length === 1);
    client.dropSubscriptions(new Error('14 UNAVAILABLE: connection reset'));
    await write(2);
    await until(() => delivered().length === 2);
    expect(calls[1]).toEqual({ error: '14 UNAVAILABLE: connection reset', resumeFrom: client.log[0].position });
    expect(delivered()).toEqual([1, 2]);
  });

  it('hands an event again after its handler failed, never skipping it', async () => {
    let failures = 1;
    const flaky: CatchUpHandlers = {
      ...handlers,
      onEvents: async (events) => {
        if (failures-- > 0) throw new Error('read model database is down');
        await handlers.onEvents(events);
      },
    };
    await write(1);
    subscription = subscribeToAllFrom(client, START, flaky, { retryDelayMs: 5 });
    await until(() => delivered().length === 1);
    expect(calls).toEqual([{ error: 'read model database is down', resumeFrom: 0n }, { events: [1] }]);
  });

  it('stops on close: nothing more is handled and the server subscription is released', async () => {
    subscription = subscribeToAllFrom(client, START, handlers, { retryDelayMs: 5 });
    await write(1);
    await until(() => delivered().length === 1);
    await subscription.close();
    await write(2);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(delivered()).toEqual([1]);
    expect(client.liveSubscriptions).toBe(0);
  });

  it('backs the port\'s subscribe() with the same catch-up', async () => {
    const seen: number[] = [];
    subscription = store.subscribe(START, async (events) => { seen.push(...events.map((e) => (e.data as { n: number }).n)); });
    await write(1);
    await write(2);
    await until(() => seen.length === 2);
    expect(seen).toEqual([1, 2]);
  });
});
