import type { ReadAllOptions } from '@kurrent/kurrentdb-client';
import { INDEXED_LOOKUPS } from '../indexed-lookups.js';
import { AppendRequest, NO_STREAM, START, StreamLookup } from '../port.js';
import { toAppendStreamRequests } from './append-mapping.js';
import { LOOKUP_INDEX_PREFIX } from './event-mapping.js';
import { KurrentEventStore } from './kurrent-event-store.js';
import { InMemoryKurrentClient } from './testing/in-memory-kurrent-client.js';

/** The model, refusing any read of $all while `forbidAll` is set. */
class GuardedClient extends InMemoryKurrentClient {
  forbidAll = false;

  override readAll(options: ReadAllOptions = {}) {
    if (this.forbidAll) throw new Error('the lookup read $all');
    return super.readAll(options);
  }
}

const PARENT = 'parent-uuid';
const created = (stream: string, parent: string | null): AppendRequest =>
  ({ stream, expectedRevision: NO_STREAM, events: [{ type: 'ResourceProviderCreated', data: { uuid: stream, parent_provider_uuid: parent } }] });
const lookup = (kind: 'parent' | 'aggregates' | 'project', value: string, until?: StreamLookup['until']): StreamLookup => {
  const { types, field } = INDEXED_LOOKUPS.find((index) => index.name === kind)!;
  return { types, field, value, ...(until ? { until } : {}) };
};

describe('the KurrentDB lookup index', () => {
  let client: GuardedClient;
  let store: KurrentEventStore;

  beforeEach(() => {
    client = new GuardedClient();
    store = new KurrentEventStore(client);
  });

  it('answers the ledger\'s lookups from their index streams, never reading $all', async () => {
    for (let i = 0; i < 200; i++) await store.append([created(`provider-${i}`, i % 50 === 0 ? PARENT : null)]);
    const moved = await store.append([{ stream: 'provider-7', expectedRevision: 0, events: [{ type: 'ResourceProviderUpdated', data: { parent_provider_uuid: PARENT } }] }]);
    await store.append([{ stream: 'provider-8', expectedRevision: 0, events: [{ type: 'AggregatesSet', data: { aggregates: ['agg-a', 'agg-b'] } }] }]);
    await store.append([{ stream: 'consumer-1', expectedRevision: 'any', events: [{ type: 'ConsumerAllocationsReplaced', data: { project_id: 'Project-X' } }] }]);

    client.forbidAll = true;
    expect(await store.streamsWith(lookup('parent', PARENT))).toEqual(['provider-0', 'provider-50', 'provider-100', 'provider-150', 'provider-7']);
    expect(await store.streamsWith({ ...lookup('parent', PARENT), types: ['ResourceProviderUpdated'] })).toEqual(['provider-7']);
    expect(await store.streamsWith(lookup('parent', PARENT, { position: moved.position }))).toEqual(['provider-0', 'provider-50', 'provider-100', 'provider-150', 'provider-7']);
    expect(await store.streamsWith(lookup('aggregates', 'agg-b'))).toEqual(['provider-8']);
    expect(await store.streamsWith(lookup('project', 'Project-X'))).toEqual(['consumer-1']);
    expect(await store.streamsWith(lookup('project', 'project-x'))).toEqual([]);
    expect(await store.streamsWith(lookup('parent', 'nobody'))).toEqual([]);
  });

  it('settles a bound inside a session by reading the candidates\' own events, not the log', async () => {
    // One session: the children's entries lie before all three events, the bound between them.
    const session = await store.append([created('child-a', PARENT), created('child-b', PARENT), created('child-c', PARENT)]);
    const [a, b] = [(await store.readStream('child-a'))[0], (await store.readStream('child-b'))[0]];
    client.forbidAll = true;
    expect(await store.streamsWith(lookup('parent', PARENT, { position: a.position }))).toEqual(['child-a']);
    expect(await store.streamsWith(lookup('parent', PARENT, { position: b.position }))).toEqual(['child-a', 'child-b']);
    expect(await store.streamsWith(lookup('parent', PARENT, { position: session.position }))).toEqual(['child-a', 'child-b', 'child-c']);
  });

  it('keeps its entries out of everything the port hands out', async () => {
    const result = await store.append([created('provider-1', PARENT)]);
    expect(Object.keys(result.revisions)).toEqual(['provider-1']);
    expect(client.log.some((record) => record.streamId.startsWith(LOOKUP_INDEX_PREFIX))).toBe(true);
    expect((await store.readAll(START, 10)).map((event) => event.stream)).toEqual(['provider-1']);
    expect(await store.head()).toEqual(result.position);
    expect(await store.countEvents(START)).toBe(1);
  });

  it('writes one stream per value even when values differ only in case, as one session requires', async () => {
    await store.append([
      { stream: 'consumer-1', expectedRevision: NO_STREAM, events: [{ type: 'ConsumerAllocationsReplaced', data: { project_id: 'abc' } }] },
      { stream: 'consumer-2', expectedRevision: NO_STREAM, events: [{ type: 'ConsumerAllocationsReplaced', data: { project_id: 'ABC' } }] },
    ]);
    expect(await store.streamsWith(lookup('project', 'ABC'))).toEqual(['consumer-2']);
    expect(await store.streamsWith(lookup('project', 'abc'))).toEqual(['consumer-1']);
  });
});

describe('backfilling the KurrentDB lookup index', () => {
  it('indexes a log written without entries in one read, after which lookups read no $all', async () => {
    const client = new GuardedClient();
    const store = new KurrentEventStore(client);
    // As a previous build wrote them: the events alone.
    const old = (request: AppendRequest) => client.multiStreamAppend(toAppendStreamRequests([request]));
    await old(created('provider-1', PARENT));
    await old(created('provider-2', null));
    const moved = await old({ stream: 'provider-2', expectedRevision: 0, events: [{ type: 'ResourceProviderUpdated', data: { parent_provider_uuid: PARENT } }] });
    await old({ stream: 'provider-1', expectedRevision: 0, events: [{ type: 'ResourceProviderUpdated', data: { parent_provider_uuid: PARENT } }] });
    await store.append([created('provider-3', PARENT)]);

    client.forbidAll = true;
    expect(await store.streamsWith(lookup('parent', PARENT))).toEqual(['provider-3']);
    client.forbidAll = false;
    const first = await store.backfillLookupIndex();
    // Each stream's first match per type: provider-1's two, provider-2's move, and provider-3's again (harmless).
    expect(first).toMatchObject({ from: START, entries: 4 });
    client.forbidAll = true;
    expect(await store.streamsWith(lookup('parent', PARENT))).toEqual(['provider-1', 'provider-2', 'provider-3']);
    expect(await store.streamsWith(lookup('parent', PARENT, { position: { commit: moved.position, prepare: moved.position } }))).toEqual(['provider-1', 'provider-2']);
    expect(await store.streamsWith({ ...lookup('parent', PARENT), types: ['ResourceProviderUpdated'] })).toEqual(['provider-2', 'provider-1']);

    // Again: from where the first stopped, so nothing is read twice.
    client.forbidAll = false;
    await old(created('provider-4', PARENT));
    expect(await store.backfillLookupIndex()).toMatchObject({ from: first.upTo, entries: 1 });
    expect(await store.streamsWith(lookup('parent', PARENT))).toEqual(['provider-1', 'provider-2', 'provider-3', 'provider-4']);
  });
});
