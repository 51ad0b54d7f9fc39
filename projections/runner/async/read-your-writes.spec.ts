import { AppendResult, EventStore, LogPosition } from '#event-store/index.js';
import { awaitingProjections, behindMessage } from './read-your-writes.js';

const at = (commit: number, prepare: number): LogPosition => ({ commit: BigInt(commit), prepare: BigInt(prepare) });

function fakeStore(position: LogPosition): EventStore & { appended: number } {
  const store = {
    appended: 0,
    append: async (): Promise<AppendResult> => { store.appended++; return { position, revisions: { s: 0 } }; },
    readStream: async () => [],
    readAll: async () => [],
    readStreamRange: async () => [],
    readRequest: async () => [],
    streamsWith: async () => [],
    head: async () => position,
    readToHead: async () => ({ head: position, events: [] }),
    countEvents: async () => 0,
    holdAppends: <T>(work: (head: LogPosition) => Promise<T>) => work(position),
    subscribe: () => ({ close: async () => undefined }),
  };
  return store;
}

const request = [{ stream: 's', expectedRevision: -1, events: [{ type: 'T', data: {} }] }];

describe('awaitingProjections', () => {
  it('returns the append once the read models reached its position, having asked for exactly that position', async () => {
    const asked: LogPosition[] = [];
    const store = awaitingProjections(fakeStore(at(7, 3)), async (p) => { asked.push(p); return true; }, 100, (d) => new Error(d));
    await expect(store.append(request)).resolves.toEqual({ position: at(7, 3), revisions: { s: 0 } });
    expect(asked).toEqual([at(7, 3)]);
  });

  it('says the write is durable but the read models are behind when the wait runs out', async () => {
    const inner = fakeStore(at(7, 3));
    const store = awaitingProjections(inner, async () => false, 250, (d) => new Error(`503 ${d}`));
    await expect(store.append(request)).rejects.toThrow(`503 ${behindMessage(250)}`);
    expect(inner.appended).toBe(1);
    expect(behindMessage(250)).toMatch(/saved.*250 ms/);
  });

  it('leaves reads alone', async () => {
    let asked = 0;
    const store = awaitingProjections(fakeStore(at(1, 1)), async () => { asked++; return true; }, 10, (d) => new Error(d));
    await store.readAll(at(0, 0), 10);
    await store.readStream('s');
    expect(asked).toBe(0);
  });
});
