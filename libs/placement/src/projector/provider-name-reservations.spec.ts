import { KurrentEventStore } from '../../../event-store/src/kurrent/kurrent-event-store.js';
import { InMemoryKurrentClient } from '../../../event-store/src/kurrent/testing/in-memory-kurrent-client.js';
import { NO_STREAM } from '../../../event-store/src/index.js';
import { NAME_RELEASED, NAME_RESERVED, nameReservationStream, reservingProviderNames } from './provider-name-reservations.js';

const created = (name: string) => ({ type: 'ResourceProviderCreated', data: { name, generation: 0, parent_provider_uuid: null, v: 1 } });
const renamed = (name: string) => ({ type: 'ResourceProviderUpdated', data: { name, generation: 1, parent_provider_uuid: null, v: 1 } });
const deleted = { type: 'ResourceProviderDeleted', data: { generation: 1, v: 1 } };
const TAKEN = expect.objectContaining({ code: '23505', constraint: 'rm_resource_providers_name' });

describe('provider-name reservations on the KurrentDB adapter (in-memory client)', () => {
  let client: InMemoryKurrentClient;
  let store: KurrentEventStore;

  beforeEach(() => {
    client = new InMemoryKurrentClient();
    store = reservingProviderNames(new KurrentEventStore(client));
  });

  const types = async (name: string) => (await store.readStream(nameReservationStream(name))).map((e) => [e.type, e.data.uuid]);

  it('reserves the name in the same session as the creation', async () => {
    await store.append([{ stream: 'provider-a', expectedRevision: NO_STREAM, events: [created('cn1')] }]);
    expect(client.sessions).toBe(1);
    expect(await types('cn1')).toEqual([[NAME_RESERVED, 'a']]);
  });

  it("refuses a second provider the name, as the read model's unique key did, and writes nothing of it", async () => {
    await store.append([{ stream: 'provider-a', expectedRevision: NO_STREAM, events: [created('cn1')] }]);
    await expect(store.append([{ stream: 'provider-b', expectedRevision: NO_STREAM, events: [created('cn1')] }])).rejects.toEqual(TAKEN);
    expect(await store.readStream('provider-b')).toEqual([]);
  });

  it('lets exactly one of several creations racing for a name commit, by the session\'s expected revision', async () => {
    const results = await Promise.allSettled(['a', 'b', 'c'].map((uuid) =>
      store.append([{ stream: `provider-${uuid}`, expectedRevision: NO_STREAM, events: [created('race')] }])));
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected', 'rejected']);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toEqual(TAKEN);
    // All three read the name free: the server's expected-revision check decided.
    expect(client.sessions).toBe(3);
    expect((await types('race')).length).toBe(1);
  });

  it('releases the old name on a rename and on a deletion, so another provider can take it', async () => {
    await store.append([{ stream: 'provider-a', expectedRevision: NO_STREAM, events: [created('old')] }]);
    await store.append([{ stream: 'provider-a', expectedRevision: 0, events: [renamed('new')] }]);
    expect(await types('old')).toEqual([[NAME_RESERVED, 'a'], [NAME_RELEASED, 'a']]);
    await store.append([{ stream: 'provider-b', expectedRevision: NO_STREAM, events: [created('old')] }]);
    await store.append([{ stream: 'provider-a', expectedRevision: 1, events: [deleted] }]);
    expect(await types('new')).toEqual([[NAME_RESERVED, 'a'], [NAME_RELEASED, 'a']]);
    await store.append([{ stream: 'provider-c', expectedRevision: NO_STREAM, events: [created('new')] }]);
    expect(await types('old')).toEqual([[NAME_RESERVED, 'a'], [NAME_RELEASED, 'a'], [NAME_RESERVED, 'b']]);
  });

  it('appends nothing more for a write that keeps the name, and handles a rename whose names differ only in case', async () => {
    await store.append([{ stream: 'provider-a', expectedRevision: NO_STREAM, events: [created('Same')] }]);
    await store.append([{ stream: 'provider-a', expectedRevision: 0, events: [renamed('Same')] }]);
    expect(client.log.filter((r) => r.streamId.startsWith('reserved-')).length).toBe(1);
    await store.append([{ stream: 'provider-a', expectedRevision: 1, events: [renamed('same')] }]);
    expect(await types('same')).toEqual([[NAME_RESERVED, 'a']]);
  });
});
