import { randomUUID } from 'node:crypto';
import { IndexedLookup } from '../indexed-lookups.js';
import { AppendResult, EventStore, LogPosition, NO_STREAM, RecordedEvent, comparePositions, recordedMicros } from '../port.js';

/**
 * The lookups the contract asks that a store indexing a list of its own (KurrentDB's `lookups`
 * option, INDEXED_LOOKUPS in service) indexes for it: the contract's other lookups go unindexed.
 */
export const CONTRACT_LOOKUPS: readonly IndexedLookup[] = [
  { name: 'contract-parent', types: ['Made', 'Moved'], field: 'parent' },
  { name: 'contract-groups', types: ['Grouped', 'Moved'], field: 'groups' },
];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const revisions = (events: readonly RecordedEvent[]) => events.map((event) => event.revision);

/**
 * The reads the ledger, the projector and as_of make, in the shared contract: each adapter
 * must answer them identically. `store` is the contract's store, opened in its beforeAll.
 */
export function describeReadSideContract(store: () => EventStore) {
  describe('read side', () => {
    const stream = (kind = 'r') => `${kind}-${randomUUID()}`;
    const event = (n: number, data: Record<string, unknown> = {}, requestId = `req-${n}`) =>
      ({ type: n % 2 === 0 ? 'Even' : 'Odd', data: { n, ...data }, metadata: { requestId } });

    /** A stream of `count` events, one append each, so each has its own position and (a few ms apart) time. */
    async function written(count: number, spacingMs = 0): Promise<{ name: string; events: RecordedEvent[] }> {
      const name = stream();
      for (let i = 0; i < count; i++) {
        await store().append([{ stream: name, expectedRevision: i - 1, events: [event(i)] }]);
        if (spacingMs > 0) await pause(spacingMs);
      }
      return { name, events: await store().readStream(name) };
    }

    it('reads part of a stream forwards and backwards, from a revision, up to a limit', async () => {
      const { name } = await written(6);
      expect(revisions(await store().readStreamRange(name, {}))).toEqual([0, 1, 2, 3, 4, 5]);
      expect(revisions(await store().readStreamRange(name, { fromRevision: 2, limit: 3 }))).toEqual([2, 3, 4]);
      expect(revisions(await store().readStreamRange(name, { direction: 'backwards', limit: 2 }))).toEqual([5, 4]);
      expect(revisions(await store().readStreamRange(name, { direction: 'backwards', fromRevision: 3 }))).toEqual([3, 2, 1, 0]);
      expect(revisions(await store().readStreamRange(name, { fromRevision: 9 }))).toEqual([]);
      expect(revisions(await store().readStreamRange(name, { direction: 'backwards', fromRevision: -1 }))).toEqual([]);
      expect(await store().readStreamRange(stream('never'), { direction: 'backwards' })).toEqual([]);
    });

    it('reads a stream up to a position, in either direction', async () => {
      const { name, events } = await written(5);
      const until = { position: events[2].position };
      expect(revisions(await store().readStreamRange(name, { until }))).toEqual([0, 1, 2]);
      expect(revisions(await store().readStreamRange(name, { until, direction: 'backwards', limit: 2 }))).toEqual([2, 1]);
      expect(revisions(await store().readStreamRange(name, { until, fromRevision: 1, limit: 1 }))).toEqual([1]);
    });

    it('reads a stream up to a time, the event recorded at that very time included', async () => {
      const { name, events } = await written(4, 3);
      for (let i = 1; i < events.length; i++) expect(recordedMicros(events[i])).toBeGreaterThan(recordedMicros(events[i - 1]));
      expect(Math.abs(Number(recordedMicros(events[0]) / 1000n) - events[0].recordedAt.getTime())).toBeLessThanOrEqual(1);
      const at = recordedMicros(events[1]);
      expect(revisions(await store().readStreamRange(name, { until: { time: at } }))).toEqual([0, 1]);
      expect(revisions(await store().readStreamRange(name, { until: { time: at - 1n } }))).toEqual([0]);
      expect(revisions(await store().readStreamRange(name, { until: { time: at }, direction: 'backwards', limit: 1 }))).toEqual([1]);
    });

    it('reads the global order with a bound and event types, counting only what it returns', async () => {
      const tag = randomUUID();
      const before = await store().head();
      const names = [stream('g'), stream('g')];
      const appended: LogPosition[] = [];
      for (let i = 0; i < 6; i++) {
        const result = await store().append([{ stream: names[i % 2], expectedRevision: i < 2 ? NO_STREAM : 'any', events: [event(i, { tag, odd: String(i % 2) })] }]);
        appended.push(result.position);
        await pause(3); // a store that keeps milliseconds gives each its own time
      }
      const mine = (events: RecordedEvent[]) => events.filter((e) => e.data.tag === tag).map((e) => e.data.n);
      expect(mine(await store().readAll(before, 100))).toEqual([0, 1, 2, 3, 4, 5]);
      expect(mine(await store().readAll(before, 100, { until: { position: appended[3] } }))).toEqual([0, 1, 2, 3]);
      expect(mine(await store().readAll(before, 100, { types: ['Odd'] }))).toEqual([1, 3, 5]);
      expect(mine(await store().readAll(before, 2, { types: ['Even', 'Nope'] }))).toEqual([0, 2]);
      expect(await store().readAll(before, 100, { types: ['Odd'], until: { position: appended[0] } })).toEqual([]);
      const odd = await store().readAll(before, 100, { types: ['Odd'] });
      const timed = await store().readAll(before, 100, { until: { time: recordedMicros(odd[0]) } });
      expect(mine(timed)).toEqual([0, 1]);
      const bare = await store().readAll(before, 100, { metadata: false });
      expect(bare.map((e) => e.metadata)).toEqual(bare.map(() => ({})));
      expect(bare.map((e) => ({ ...e, metadata: {} }))).toEqual((await store().readAll(before, 100)).map((e) => ({ ...e, metadata: {} })));
      expect((await store().readAll(before, 100))[0].metadata.requestId).toBe('req-0');
    });

    it('finds the streams whose events of some types hold a value in a field, or in an array there, up to a point', async () => {
      const [value, other] = [randomUUID(), randomUUID()];
      const [a, b, c, d, e] = [stream('l'), stream('l'), stream('l'), stream('l'), stream('l')];
      /** One append each, so each event has its own position and (a few ms apart) time. */
      const step = async (name: string, type: string, data: Record<string, unknown>) => {
        await store().append([{ stream: name, expectedRevision: 'any', events: [{ type, data }] }]);
        await pause(3);
        return (await store().readStream(name)).at(-1)!;
      };
      const first = await step(b, 'Made', { parent: value });
      const grouped = await step(a, 'Grouped', { groups: [other, value] });
      await step(c, 'Made', { parent: other });
      await step(d, 'Moved', { parent: value, groups: [value] });
      await step(b, 'Moved', { parent: value });
      await step(e, 'Noted', { parent: value });
      await step(c, 'Made', { parent: [other], note: value });

      expect(await store().streamsWith({ types: ['Made', 'Moved'], field: 'parent', value })).toEqual([b, d]);
      expect(await store().streamsWith({ types: ['Moved'], field: 'parent', value })).toEqual([d, b]);
      expect(await store().streamsWith({ types: ['Grouped', 'Moved'], field: 'groups', value })).toEqual([a, d]);
      expect(await store().streamsWith({ types: ['Made'], field: 'parent', value: other })).toEqual([c]);
      expect(await store().streamsWith({ types: ['Made'], field: 'note', value: other })).toEqual([]);
      expect(await store().streamsWith({ types: ['Nope'], field: 'parent', value })).toEqual([]);
      expect(await store().streamsWith({ types: [], field: 'parent', value })).toEqual([]);
      expect(await store().streamsWith({ types: ['Made', 'Moved'], field: 'parent', value, until: { position: first.position } })).toEqual([b]);
      expect(await store().streamsWith({ types: ['Grouped', 'Moved'], field: 'groups', value, until: { time: recordedMicros(grouped) } })).toEqual([a]);
      expect(await store().streamsWith({ types: ['Grouped', 'Moved'], field: 'groups', value, until: { time: recordedMicros(grouped) - 1n } })).toEqual([]);
    });

    it('names a head that every acknowledged append is at or before, and the global order reaches it', async () => {
      const { events } = await written(3);
      const head = await store().head();
      expect(comparePositions(head, events[2].position)).toBe(0);
      const upToHead = await store().readAll(events[0].position, 100, { until: { position: head } });
      expect(upToHead.map((e) => e.revision)).toEqual([1, 2]);
    });

    it('reads the head and the global order up to it in one call, within a limit and a filter', async () => {
      const { name, events } = await written(4);
      const all = await store().readToHead(events[0].position, 100);
      expect(comparePositions(all.head, events[3].position)).toBe(0);
      expect(all.events.map((e) => [e.stream, e.revision])).toEqual([[name, 1], [name, 2], [name, 3]]);
      expect(all.events).toEqual(await store().readAll(events[0].position, 100));
      const limited = await store().readToHead(events[0].position, 2, { types: ['Odd'], metadata: false });
      expect(limited.events.map((e) => [e.revision, e.metadata])).toEqual([[1, {}], [3, {}]]);
      expect(await store().readToHead(events[3].position, 100)).toEqual({ head: events[3].position, events: [] });
    });

    it('counts the events between two positions', async () => {
      const before = await store().head();
      const { events } = await written(3);
      expect(await store().countEvents(before, events[2].position)).toBe(3);
      expect(await store().countEvents(events[0].position, events[2].position)).toBe(2);
      expect(await store().countEvents(events[2].position, events[0].position)).toBe(0);
      expect(await store().countEvents(before)).toBeGreaterThanOrEqual(3);
    });

    it('holds a head that no append lands at or before, the appends written while it is held included', async () => {
      const { events } = await written(2);
      let during: Promise<AppendResult> | undefined;
      const held = await store().holdAppends(async (head) => {
        during = store().append([{ stream: stream('held'), expectedRevision: NO_STREAM, events: [event(9)] }]);
        await pause(50);
        return head;
      });
      expect(comparePositions(held, events[1].position)).toBeGreaterThanOrEqual(0);
      expect(comparePositions((await during!).position, held)).toBeGreaterThan(0);
      await expect(store().holdAppends(async () => { throw new Error('work failed'); })).rejects.toThrow('work failed');
    });

    it('reads every event one request wrote, across streams, in global order', async () => {
      const request = `req-${randomUUID()}`;
      const [a, b] = [stream('a'), stream('b')];
      await store().append([{ stream: a, expectedRevision: NO_STREAM, events: [event(1, {}, request)] }]);
      await store().append([{ stream: b, expectedRevision: NO_STREAM, events: [event(2)] }]);
      await store().append([
        { stream: b, expectedRevision: 0, events: [event(3, {}, request)] },
        { stream: a, expectedRevision: 0, events: [event(4, {}, request)] },
      ]);
      const found = await store().readRequest(request);
      expect(found.map((e) => e.stream).sort()).toEqual([a, a, b].sort());
      for (let i = 1; i < found.length; i++) expect(comparePositions(found[i - 1].position, found[i].position)).toBeLessThan(0);
      expect(found[0].data.n).toBe(1);
      expect(await store().readRequest(`req-${randomUUID()}`)).toEqual([]);
    });
  });
}
