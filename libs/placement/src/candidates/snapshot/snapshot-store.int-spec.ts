import { createTestDatabase, TestDatabase } from '#test/support/database.js';
import { Database, openDatabase } from '../../persistence/database.js';
import { CandidateSnapshotStore } from './snapshot-store.js';
import { loadNewestSnapshot, PositionedView, replayLog, storeSnapshot } from './snapshots.js';
import { verifyCandidateSnapshot } from './admin-snapshot.js';
import { encodeView, SNAPSHOT_FORMAT } from './view-codec.js';

jest.setTimeout(60_000);

describe('candidate snapshots in PostgreSQL', () => {
  let testDb: TestDatabase;
  let db: Database;
  let store: CandidateSnapshotStore;
  let created = 0;

  /** A provider with an inventory: two events of its own stream. */
  async function addProvider(): Promise<string> {
    const uuid = `00000000-0000-4000-8000-${(++created).toString().padStart(12, '0')}`;
    await db.eventStore.append([{ stream: `provider-${uuid}`, expectedRevision: -1, events: [
      { type: 'ResourceProviderCreated', data: { uuid, name: uuid, parent_provider_uuid: null, generation: 0, v: 1 } },
      { type: 'InventoriesSet', data: { inventories: { VCPU: { total: 8, reserved: 0, min_unit: 1, max_unit: 8, step_size: 1, allocation_ratio: 1 } }, generation: 1, v: 1 } },
    ] }]);
    return uuid;
  }

  const loaded = (skipped: string[] = []) => loadNewestSnapshot(store, db.eventStore, (why) => skipped.push(why));

  beforeAll(async () => {
    testDb = await createTestDatabase('pl_snapshots');
    db = await openDatabase(testDb.url, 8);
    store = new CandidateSnapshotStore(db.pool);
  });

  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  beforeEach(() => db.pool.query('DELETE FROM rm_candidate_snapshots'));

  it('stores a view and loads it back at its position, with its log events counted', async () => {
    await addProvider();
    await addProvider();
    const replayed = await replayLog(db.eventStore);
    expect(await storeSnapshot(store, replayed)).toBe(true);
    const back = (await loaded())!;
    expect(back.position).toEqual(replayed.position);
    expect(back.events).toBe(replayed.events);
    expect(back.last).toEqual(replayed.last);
    expect(back.view.index.toSnapshot()).toEqual(replayed.view.index.toSnapshot());
    // Nothing as new is stored twice.
    expect(await storeSnapshot(store, replayed)).toBe(false);
  });

  it('keeps the newest of writers racing, and refuses an older one after', async () => {
    const views: PositionedView[] = [];
    for (let i = 0; i < 4; i++) {
      await addProvider();
      views.push(await replayLog(db.eventStore));
    }
    const written = await Promise.all(views.map((view) => storeSnapshot(store, view).catch((error: Error) => error)));
    expect(written.every((result) => typeof result === 'boolean')).toBe(true);
    const heads = await store.heads(SNAPSHOT_FORMAT);
    expect(heads.length).toBeGreaterThanOrEqual(1);
    // Whichever writers won, a later one at the newest position is stored or refused as not newer.
    await storeSnapshot(store, views[3]);
    expect((await loaded())!.events).toBe(views[3].events);
    expect(await storeSnapshot(store, views[0])).toBe(false);
  });

  it('finds the newest snapshot at or before a past point, by position or by time, and replays on from it', async () => {
    await addProvider();
    const first = await replayLog(db.eventStore);
    expect(await storeSnapshot(store, first)).toBe(true);
    const [firstLast] = await db.eventStore.readStream(first.last!.stream, first.last!.revision);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const between = await addProvider();
    const middle = await replayLog(db.eventStore);
    await addProvider();
    const second = await replayLog(db.eventStore);
    expect(await storeSnapshot(store, second)).toBe(true);

    const atMiddle = await loadNewestSnapshot(store, db.eventStore, undefined, { position: middle.position });
    expect(atMiddle!.position).toEqual(first.position);
    const byTime = await loadNewestSnapshot(store, db.eventStore, undefined, { time: BigInt(firstLast.recordedAt.getTime() + 10) * 1000n });
    expect(byTime!.position).toEqual(first.position);
    expect(await loadNewestSnapshot(store, db.eventStore, undefined, { position: { commit: 0n, prepare: 0n } })).toBeNull();
    const replayed = await replayLog(db.eventStore, atMiddle, { position: middle.position });
    expect(replayed.events).toBe(middle.events);
    expect(replayed.view.index.toSnapshot()).toEqual(middle.view.index.toSnapshot());
    expect(replayed.view.index.stateOf(between)).toBeDefined();
  });

  it('passes over a damaged payload, another format and a snapshot the log no longer holds', async () => {
    await addProvider();
    const older = await replayLog(db.eventStore);
    await addProvider();
    const newer = await replayLog(db.eventStore);
    await storeSnapshot(store, older);
    await storeSnapshot(store, newer);
    // Still JSON, but not what was written: only the checksum tells.
    await db.pool.query(`UPDATE rm_candidate_snapshot_parts SET payload = replace(payload, '"total":8', '"total":9')
                          WHERE snapshot_id = (SELECT id FROM rm_candidate_snapshots WHERE events = $1)`, [newer.events]);
    const skipped: string[] = [];
    expect((await loaded(skipped))!.events).toBe(older.events);
    expect(skipped).toEqual([expect.stringContaining('checksum')]);

    // A newer build's format is not read by this one.
    await db.pool.query('UPDATE rm_candidate_snapshots SET format = $1 WHERE events = $2', [SNAPSHOT_FORMAT + 1, older.events]);
    expect(await loaded()).toBeNull();

    // A log rewound under the snapshot (its last event gone): the snapshot would claim events that are not there.
    await db.pool.query('DELETE FROM rm_candidate_snapshots');
    await storeSnapshot(store, { ...newer, last: { stream: 'provider-00000000-0000-4000-8000-999999999999', revision: 0 } });
    const stale: string[] = [];
    expect(await loaded(stale)).toBeNull();
    expect(stale).toEqual([expect.stringContaining('does not hold its last event')]);
  });

  it('verify finds a snapshot equal to the log up to its position, and reports one that is not', async () => {
    await addProvider();
    const replayed = await replayLog(db.eventStore);
    await storeSnapshot(store, replayed);
    await addProvider();
    expect(await verifyCandidateSnapshot(db.pool, db.eventStore)).toMatchObject({ status: 'match', events: replayed.events, differences: [] });

    // A snapshot whose view lacks a provider the log holds by then: a consistent payload, wrong content.
    await db.pool.query('DELETE FROM rm_candidate_snapshots');
    const lacking = await replayLog(db.eventStore);
    const [gone] = lacking.view.index.toSnapshot().states;
    lacking.view.index.put(gone.uuid, { status: 'deleted', uuid: gone.uuid });
    await store.write({ format: SNAPSHOT_FORMAT, position: lacking.position, events: lacking.events, last: lacking.last, payload: encodeView(lacking.view) });
    const check = await verifyCandidateSnapshot(db.pool, db.eventStore);
    expect(check).toMatchObject({ status: 'mismatch', differences: [`provider ${gone.uuid}: missing from the snapshot`, "the index's byClass lists differ"] });
  });
});
