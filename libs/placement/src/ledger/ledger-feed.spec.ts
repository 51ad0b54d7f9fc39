import type { EventStore, LogPosition, RecordedEvent } from '#event-store/index.js';
import { LedgerFeed } from './ledger-feed.js';

const recorded = (prepare: number): RecordedEvent => ({
  stream: 'provider-p', revision: prepare, position: { commit: 10n, prepare: BigInt(prepare) }, type: 'TraitsSet',
  data: { traits: [], generation: prepare }, metadata: { requestId: `req-${prepare}` }, recordedAt: new Date('2024-03-01T10:00:00.123Z'), recordedAtMicros: 1_709_287_200_123_400n + BigInt(prepare),
});

/** A store whose log grows when the test says so; readAll as the port promises (strictly after, in order). */
function fakeStore(log: RecordedEvent[]) {
  const reads: LogPosition[] = [];
  const store = {
    readAll: async (from: LogPosition, limit: number) => {
      reads.push(from);
      return log.filter((e) => e.position.prepare > from.prepare).slice(0, limit);
    },
  } as unknown as EventStore;
  return { store, reads };
}

describe('the ledger feed', () => {
  it('shows the microsecond times the store kept', async () => {
    const { store } = fakeStore([recorded(1), recorded(2)]);
    const page = await new LedgerFeed(store).page({ commit: 0n, prepare: 0n }, 10);
    expect(page.events.map((e) => [e.revision, e.time, e.metadata.requestId])).toEqual([[1, '2024-03-01T10:00:00.123401Z', 'req-1'], [2, '2024-03-01T10:00:00.123402Z', 'req-2']]);
  });

  it('long-polls until an event arrives', async () => {
    const log: RecordedEvent[] = [];
    const { store, reads } = fakeStore(log);
    setTimeout(() => log.push(recorded(1)), 30);
    const page = await new LedgerFeed(store).waitForPage({ commit: 0n, prepare: 0n }, 10, { until: Date.now() + 5000, stopped: () => false, pollMs: 5 });
    expect(page.events.map((e) => e.revision)).toEqual([1]);
    expect(reads.length).toBeGreaterThan(1);
  });

  it('answers nothing at the deadline, after one last look', async () => {
    const { store, reads } = fakeStore([]);
    const readAt: number[] = [];
    const readAll = store.readAll.bind(store);
    store.readAll = async (from, limit) => (readAt.push(Date.now()), readAll(from, limit));
    const until = Date.now() + 60;
    expect(await new LedgerFeed(store).waitForPage({ commit: 0n, prepare: 0n }, 10, { until, stopped: () => false, pollMs: 25 })).toEqual({ events: [], next: { commit: 0n, prepare: 0n } });
    // A loaded host may fire the timers late, so only the order is asserted: polled, then looked once more at the deadline.
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(readAt[readAt.length - 1]).toBeGreaterThanOrEqual(until - 1);
  });

  it('stops waiting as soon as it is told to', async () => {
    const { store, reads } = fakeStore([]);
    let stop = false;
    setTimeout(() => (stop = true), 20);
    const started = Date.now();
    expect(await new LedgerFeed(store).waitForPage({ commit: 0n, prepare: 0n }, 10, { until: started + 5000, stopped: () => stop, pollMs: 5 })).toEqual({ events: [], next: { commit: 0n, prepare: 0n } });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(reads.length).toBeGreaterThan(1);
  });

  it('reads on past events the caller may not see, and ends the page after them', async () => {
    const { store, reads } = fakeStore([recorded(1), recorded(2), recorded(3)]);
    const onlyThird = async (events: { revision: number }[]) => events.filter((e) => e.revision === 3);
    const page = await new LedgerFeed(store).waitForPage({ commit: 0n, prepare: 0n }, 2, { until: Date.now() + 5000, stopped: () => false, pollMs: 5 }, onlyThird as never);
    expect(page.events.map((e) => e.revision)).toEqual([3]);
    expect(page.next).toEqual({ commit: 10n, prepare: 3n });
    expect(reads.map((r) => r.prepare)).toEqual([0n, 2n]);
  });

  it('moves a page past what it hides, even when it shows nothing', async () => {
    const { store } = fakeStore([recorded(1), recorded(2)]);
    const page = await new LedgerFeed(store).page({ commit: 0n, prepare: 0n }, 10, async () => []);
    expect(page).toEqual({ events: [], next: { commit: 10n, prepare: 2n } });
  });
});
