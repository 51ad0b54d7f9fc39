import { AppendOutcome, instrumentAppends } from './instrumented-event-store.js';
import { AppendRequest, AppendResult, EventStore, RecordedEvent, START, WrongExpectedRevision } from './port.js';

/** A store whose next append answers as told, plus a method of its own beyond the port. */
class ScriptedStore implements EventStore {
  next: () => Promise<AppendResult> = async () => ({ position: START, revisions: {} });
  readonly ownMethodCalls: string[] = [];

  append(_requests: readonly AppendRequest[]): Promise<AppendResult> {
    return this.next();
  }
  async readStream(): Promise<RecordedEvent[]> { return []; }
  async readAll(): Promise<RecordedEvent[]> { return []; }
  async readStreamRange(): Promise<RecordedEvent[]> { return []; }
  async readRequest(): Promise<RecordedEvent[]> { return []; }
  async streamsWith(): Promise<string[]> { return []; }
  async head() { return START; }
  async readToHead() { return { head: START, events: [] }; }
  async countEvents() { return 0; }
  holdAppends<T>(work: (head: typeof START) => Promise<T>) { return work(START); }
  subscribe() { return { close: async () => undefined }; }
  ensureSchema(name: string): void { this.ownMethodCalls.push(name); }
}

const twoStreams: AppendRequest[] = [
  { stream: 'provider-a', expectedRevision: 0, events: [{ type: 'A', data: {} }, { type: 'B', data: {} }] },
  { stream: 'consumer-c', expectedRevision: -1, events: [{ type: 'C', data: {} }] },
];

describe('instrumentAppends', () => {
  const given = () => {
    const store = new ScriptedStore();
    const seen: { outcome: AppendOutcome; seconds: number; events: number }[] = [];
    const instrumented = instrumentAppends(store, { appended: (outcome, seconds, events) => seen.push({ outcome, seconds, events }) });
    return { store, seen, instrumented };
  };

  it('reports a successful append with every stream\'s events and returns the store\'s result', async () => {
    const { store, seen, instrumented } = given();
    store.next = async () => ({ position: { commit: 7n, prepare: 3n }, revisions: { 'provider-a': 2 } });
    await expect(instrumented.append(twoStreams)).resolves.toEqual({ position: { commit: 7n, prepare: 3n }, revisions: { 'provider-a': 2 } });
    expect(seen).toEqual([{ outcome: 'ok', seconds: expect.any(Number), events: 3 }]);
    expect(seen[0].seconds).toBeGreaterThanOrEqual(0);
  });

  it("hands on the store's own promise, which appendAfter names appends by, and times appendAfter too", async () => {
    const seen: AppendOutcome[] = [];
    const answer = Promise.resolve({ position: START, revisions: {} });
    const earlier: Promise<AppendResult>[][] = [];
    const store = Object.assign(new ScriptedStore(), {
      appendAfter: (after: readonly Promise<AppendResult>[], _requests: readonly AppendRequest[]) => {
        earlier.push([...after]);
        return answer;
      },
    });
    store.next = () => answer;
    const timed = instrumentAppends(store, { appended: (outcome) => seen.push(outcome) });
    const first = timed.append(twoStreams);
    expect(first).toBe(answer);
    await expect(timed.appendAfter([first], twoStreams)).resolves.toBeDefined();
    expect(earlier).toEqual([[answer]]);
    await answer;
    expect(seen).toEqual(['ok', 'ok']);
    expect(instrumentAppends<EventStore>(new ScriptedStore(), { appended: () => undefined }).appendAfter).toBeUndefined();
  });

  it('answers the append as the store did when the observer fails to record it', async () => {
    const store = new ScriptedStore();
    const instrumented = instrumentAppends(store, { appended: () => { throw new Error('the registry is full'); } });
    await expect(instrumented.append(twoStreams)).resolves.toEqual({ position: START, revisions: {} });
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('reports a WrongExpectedRevision as a conflict and rethrows it unchanged', async () => {
    const { store, seen, instrumented } = given();
    const lost = new WrongExpectedRevision('provider-a', 0);
    store.next = async () => { throw lost; };
    await expect(instrumented.append(twoStreams)).rejects.toBe(lost);
    expect(seen.map((s) => s.outcome)).toEqual(['conflict']);
  });

  it('reports any other failure as an error', async () => {
    const { store, seen, instrumented } = given();
    store.next = async () => { throw new Error('connection reset'); };
    await expect(instrumented.append(twoStreams)).rejects.toThrow('connection reset');
    expect(seen.map((s) => s.outcome)).toEqual(['error']);
  });

  it('leaves the adapter\'s other methods callable, bound to the adapter', () => {
    const { store, instrumented } = given();
    const { ensureSchema } = instrumented;
    ensureSchema('detached call');
    instrumented.ensureSchema('method call');
    expect(store.ownMethodCalls).toEqual(['detached call', 'method call']);
  });
});
