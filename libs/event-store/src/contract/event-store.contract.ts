import { randomUUID } from 'node:crypto';
import { EventStore, NO_STREAM, RecordedEvent, START, WrongExpectedRevision, comparePositions } from '../port.js';
import { describeReadSideContract } from './read-side.contract.js';

/** The behaviour every adapter of the port must show; run by each adapter's int-spec. */
export function describeEventStoreContract(name: string, open: () => Promise<{ store: EventStore; close(): Promise<void> }>) {
  describe(`event store contract: ${name}`, () => {
    let store: EventStore;
    let close: () => Promise<void>;
    const stream = (kind = 's') => `${kind}-${randomUUID()}`;
    const event = (n: number) => ({ type: 'Happened', data: { n }, metadata: { requestId: `req-${n}` } });

    beforeAll(async () => ({ store, close } = await open()));
    afterAll(async () => close());

    it('appends to a new stream and reads it back in order', async () => {
      const s = stream();
      const result = await store.append([{ stream: s, expectedRevision: NO_STREAM, events: [event(1), event(2)] }]);
      expect(result.revisions[s]).toBe(1);
      const events = await store.readStream(s);
      expect(events.map((e) => [e.revision, e.data])).toEqual([[0, { n: 1 }], [1, { n: 2 }]]);
      expect(events[1].metadata.requestId).toBe('req-2');
      expect(comparePositions(result.position, events[1].position)).toBe(0);
    });

    it('reads a stream from a revision', async () => {
      const s = stream();
      await store.append([{ stream: s, expectedRevision: NO_STREAM, events: [event(1), event(2), event(3)] }]);
      expect((await store.readStream(s, 2)).map((e) => e.data)).toEqual([{ n: 3 }]);
    });

    it('refuses a stale expected revision and writes nothing', async () => {
      const s = stream();
      await store.append([{ stream: s, expectedRevision: NO_STREAM, events: [event(1)] }]);
      await expect(store.append([{ stream: s, expectedRevision: NO_STREAM, events: [event(2)] }])).rejects.toBeInstanceOf(WrongExpectedRevision);
      await expect(store.append([{ stream: s, expectedRevision: 5, events: [event(2)] }])).rejects.toBeInstanceOf(WrongExpectedRevision);
      expect(await store.readStream(s)).toHaveLength(1);
    });

    it("names the stream that failed its check, and appends at 'any' revision to new and existing streams", async () => {
      const [a, b] = [stream('a'), stream('b')];
      await store.append([{ stream: a, expectedRevision: NO_STREAM, events: [event(1)] }]);
      const refused = await store.append([
        { stream: a, expectedRevision: 0, events: [event(2)] }, { stream: b, expectedRevision: 3, events: [event(3)] },
      ]).catch((error) => error);
      expect(refused).toBeInstanceOf(WrongExpectedRevision);
      expect(refused.stream).toBe(b);
      const result = await store.append([
        { stream: a, expectedRevision: 'any', events: [event(4)] }, { stream: b, expectedRevision: 'any', events: [event(5), event(6)] },
      ]);
      expect(result.revisions).toEqual({ [a]: 1, [b]: 1 });
      expect((await store.readStream(a)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 4 }]);
      expect((await store.readStream(b)).map((e) => [e.revision, e.data])).toEqual([[0, { n: 5 }], [1, { n: 6 }]]);
    });

    it('lets exactly one of many concurrent appends at the same revision win', async () => {
      const s = stream();
      await store.append([{ stream: s, expectedRevision: NO_STREAM, events: [event(0)] }]);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => store.append([{ stream: s, expectedRevision: 0, events: [event(i + 1)] }])),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(WrongExpectedRevision);
      expect(await store.readStream(s)).toHaveLength(2);
    });

    it('lets exactly one of many concurrent creations of a stream win', async () => {
      const s = stream();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => store.append([{ stream: s, expectedRevision: NO_STREAM, events: [event(i)] }])),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(await store.readStream(s)).toHaveLength(1);
    });

    it('writes nothing anywhere when one stream of a multi-stream append fails its check', async () => {
      const [a, b, c] = [stream('a'), stream('b'), stream('c')];
      await store.append([{ stream: b, expectedRevision: NO_STREAM, events: [event(0)] }]);
      await expect(store.append([
        { stream: a, expectedRevision: NO_STREAM, events: [event(1)] },
        { stream: b, expectedRevision: 7, events: [event(2)] },
        { stream: c, expectedRevision: 'any', events: [event(3)] },
      ])).rejects.toBeInstanceOf(WrongExpectedRevision);
      expect(await store.readStream(a)).toHaveLength(0);
      expect(await store.readStream(b)).toHaveLength(1);
      expect(await store.readStream(c)).toHaveLength(0);
    });

    it('creates many new streams in one append, and none when one of them exists', async () => {
      const fresh = Array.from({ length: 5 }, () => stream('n'));
      const result = await store.append(fresh.map((s, i) => ({ stream: s, expectedRevision: NO_STREAM, events: [event(i), event(i + 10)] })));
      expect(result.revisions).toEqual(Object.fromEntries(fresh.map((s) => [s, 1])));
      const more = [stream('m'), fresh[2], stream('m')];
      await expect(store.append(more.map((s) => ({ stream: s, expectedRevision: NO_STREAM, events: [event(99)] }))))
        .rejects.toBeInstanceOf(WrongExpectedRevision);
      expect(await store.readStream(more[0])).toHaveLength(0);
      expect(await store.readStream(more[2])).toHaveLength(0);
      expect(await store.readStream(fresh[2])).toHaveLength(2);
    });

    it('appends atomically to several streams', async () => {
      const [a, b] = [stream('a'), stream('b')];
      await store.append([{ stream: b, expectedRevision: NO_STREAM, events: [event(0)] }]);
      const result = await store.append([
        { stream: a, expectedRevision: NO_STREAM, events: [event(1)] },
        { stream: b, expectedRevision: 0, events: [event(2), event(3)] },
      ]);
      expect(result.revisions).toEqual({ [a]: 0, [b]: 2 });
      const written = [...await store.readStream(a), ...(await store.readStream(b)).slice(1)];
      expect(written).toHaveLength(3);
      // The append's position is that of its last event in the global order.
      expect(written.filter((e) => comparePositions(e.position, result.position) > 0)).toEqual([]);
      expect(written.some((e) => comparePositions(e.position, result.position) === 0)).toBe(true);
    });

    it("records an append's events in the order given, not in the order of the streams' names", async () => {
      const inOrder = async (first: string, second: string) => {
        const [a, b] = [await store.readStream(first), await store.readStream(second)];
        return comparePositions(a.at(-1)!.position, b.at(-1)!.position) < 0;
      };
      // New streams only (one statement for all of them), then streams that exist.
      const [parent, child] = [stream('z'), stream('a')];
      await store.append([
        { stream: parent, expectedRevision: NO_STREAM, events: [event(1)] }, { stream: child, expectedRevision: NO_STREAM, events: [event(2)] },
      ]);
      expect(await inOrder(parent, child)).toBe(true);
      await store.append([{ stream: parent, expectedRevision: 0, events: [event(3)] }, { stream: child, expectedRevision: 'any', events: [event(4)] }]);
      expect(await inOrder(parent, child)).toBe(true);
      expect((await store.readStream(child)).map((e) => [e.revision, e.data])).toEqual([[0, { n: 2 }], [1, { n: 4 }]]);
    });

    it("answers a stream's head for an 'any' append without events, and writes nothing to it", async () => {
      const [a, b, c, never] = [stream('a'), stream('b'), stream('c'), stream('never')];
      await store.append([{ stream: a, expectedRevision: NO_STREAM, events: [event(1), event(2)] }]);
      expect((await store.append([{ stream: a, expectedRevision: 'any', events: [] }])).revisions).toEqual({ [a]: 1 });
      const mixed = await store.append([
        { stream: c, expectedRevision: 'any', events: [event(4)] },
        { stream: a, expectedRevision: 'any', events: [] },
        { stream: b, expectedRevision: NO_STREAM, events: [event(3)] },
        { stream: never, expectedRevision: 'any', events: [] },
      ]);
      expect(mixed.revisions).toEqual({ [a]: 1, [b]: 0, [c]: 0, [never]: -1 });
      expect((await store.readStream(a)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
      expect(await store.readStream(never)).toEqual([]);
      const last = [...await store.readStream(b), ...await store.readStream(c)].sort((x, y) => comparePositions(x.position, y.position)).at(-1)!;
      expect(comparePositions(mixed.position, last.position)).toBe(0);
    });

    it('creates thousands of new streams in one append, and none of them when one exists, naming it', async () => {
      const tag = randomUUID();
      const tagged = (n: number) => ({ type: 'Imported', data: { n, tag } });
      const before = await store.head();
      const fresh = Array.from({ length: 2000 }, () => stream('bulk'));
      const events = (i: number) => (i % 3 === 0 ? [tagged(i), tagged(i + 1)] : [tagged(i)]);
      const result = await store.append(fresh.map((s, i) => ({ stream: s, expectedRevision: NO_STREAM, events: events(i) })));
      expect(result.revisions).toEqual(Object.fromEntries(fresh.map((s, i) => [s, events(i).length - 1])));
      const written = (await store.readAll(before, 10_000)).filter((e) => e.data.tag === tag);
      expect(written).toHaveLength(fresh.reduce((n, _, i) => n + events(i).length, 0));
      expect(comparePositions(written.at(-1)!.position, result.position)).toBe(0);
      expect((await store.readStream(fresh[3])).map((e) => [e.revision, e.data.n])).toEqual([[0, 3], [1, 4]]);

      const retag = randomUUID();
      const more = [...Array.from({ length: 1000 }, () => stream('bulk')), fresh[1234]];
      const refused = await store.append(more.map((s) => ({ stream: s, expectedRevision: NO_STREAM, events: [{ type: 'Imported', data: { tag: retag } }] })))
        .catch((error) => error);
      expect(refused).toBeInstanceOf(WrongExpectedRevision);
      expect(refused.stream).toBe(fresh[1234]);
      expect((await store.readAll(before, 10_000)).filter((e) => e.data.tag === retag)).toEqual([]);
      expect(await store.readStream(fresh[1234])).toHaveLength(1);
    });

    it('lets exactly one of concurrent bulk creations that share a stream win, and writes nothing of the others', async () => {
      const shared = stream('shared');
      const groups = Array.from({ length: 4 }, () => [shared, ...Array.from({ length: 50 }, () => stream('own'))]);
      const outcomes = await Promise.allSettled(groups.map((group) =>
        store.append(group.map((s) => ({ stream: s, expectedRevision: NO_STREAM, events: [event(1)] })))));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const [i, o] of outcomes.entries()) {
        if (o.status === 'rejected') expect(o.reason).toEqual(new WrongExpectedRevision(shared, NO_STREAM));
        const own = await Promise.all(groups[i].slice(1).map((s) => store.readStream(s)));
        expect(own.map((events) => events.length)).toEqual(groups[i].slice(1).map(() => (o.status === 'fulfilled' ? 1 : 0)));
      }
      expect(await store.readStream(shared)).toHaveLength(1);
    });

    it('concurrent multi-stream appends over overlapping streams never deadlock into lost writes', async () => {
      const [a, b] = [stream('a'), stream('b')];
      const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => store.append(
        i % 2 === 0
          ? [{ stream: a, expectedRevision: 'any', events: [event(i)] }, { stream: b, expectedRevision: 'any', events: [event(i)] }]
          : [{ stream: b, expectedRevision: 'any', events: [event(i)] }, { stream: a, expectedRevision: 'any', events: [event(i)] }],
      )));
      const won = outcomes.filter((o) => o.status === 'fulfilled').length;
      // 'any' appends have nothing to lose a race on: each one is written, whatever order it names its streams in.
      expect(won).toBe(10);
      expect((await store.readStream(a)).length).toBe(won);
      expect((await store.readStream(b)).length).toBe(won);
    });

    describeReadSideContract(() => store);

    it('a reader following the global order during concurrent appends sees every event exactly once, in a stable order', async () => {
      const tag = randomUUID();
      const mine = (e: RecordedEvent) => (e.data as { tag?: string }).tag === tag;
      const seen: RecordedEvent[] = [];
      const subscription = store.subscribe(START, async (events) => { seen.push(...events.filter(mine)); });
      const writers = 8, perWriter = 15;
      await Promise.all(Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < perWriter; i++) {
          await store.append([{ stream: stream('w'), expectedRevision: NO_STREAM, events: [{ type: 'Tagged', data: { tag, w, i } }] }]);
        }
      }));
      const deadline = Date.now() + 10_000;
      while (seen.length < writers * perWriter && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await subscription.close();
      expect(seen).toHaveLength(writers * perWriter);
      expect(new Set(seen.map((e) => e.stream)).size).toBe(writers * perWriter);
      for (let i = 1; i < seen.length; i++) expect(comparePositions(seen[i - 1].position, seen[i].position)).toBeLessThan(0);
      const reread = (await store.readAll(START, 1_000_000)).filter(mine);
      expect(reread.map((e) => e.stream)).toEqual(seen.map((e) => e.stream));
    });
  });
}
