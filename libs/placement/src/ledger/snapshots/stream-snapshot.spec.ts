import type { RecordedEvent } from '#event-store/index.js';
import { canonicalJson, foldFrom, snapshotDigest, usableAt } from './stream-snapshot.js';

const event = (revision: number, commit: bigint, micros: bigint): RecordedEvent => ({
  stream: 's', revision, position: { commit, prepare: BigInt(revision) }, type: 'Added', data: { n: revision },
  metadata: {}, recordedAt: new Date(Number(micros / 1000n)), recordedAtMicros: micros,
});
const sum = { initial: () => 0, evolve: (state: number, e: RecordedEvent) => state + (e.data.n as number) };
const start = { state: 0, revision: -1, reach: null };

describe('stream snapshots', () => {
  it('are due every N revisions, with the state and the latest position and time so far', () => {
    // Revision 2 was written by a transaction ordered before revision 1's, and at an earlier time.
    const events = [event(0, 10n, 100n), event(1, 30n, 300n), event(2, 20n, 200n), event(3, 40n, 400n)];
    const { state, due } = foldFrom('s', start, events, sum, 2);
    expect(state).toBe(6);
    expect(due.map((s) => [s.revision, s.state, s.position.commit, s.reach.position.commit, s.reach.micros]))
      .toEqual([[1, 1, 30n, 30n, 300n], [3, 6, 40n, 40n, 400n]]);
  });

  it('are not taken past a gap: a bounded read may leave out a lower revision written later', () => {
    const { state, due } = foldFrom('s', start, [event(0, 10n, 1n), event(2, 20n, 2n), event(3, 30n, 3n)], sum, 2);
    expect(state).toBe(5);
    expect(due).toEqual([]);
  });

  it('go on from a snapshot', () => {
    const from = { state: 1, revision: 1, reach: { position: { commit: 30n, prepare: 1n }, micros: 300n } };
    const { due } = foldFrom('s', from, [event(2, 20n, 200n), event(3, 40n, 250n)], sum, 2);
    expect(due.map((s) => [s.revision, s.state, s.reach.position.commit, s.reach.micros])).toEqual([[3, 6, 40n, 300n]]);
  });

  it('serve a point only when everything they hold is at or before it', () => {
    const snapshot = { reach: { position: { commit: 30n, prepare: 5n }, micros: 300n } };
    expect(usableAt(snapshot, { position: { commit: 30n, prepare: 5n } })).toBe(true);
    expect(usableAt(snapshot, { position: { commit: 30n, prepare: 4n } })).toBe(false);
    expect(usableAt(snapshot, { time: 300n })).toBe(true);
    expect(usableAt(snapshot, { time: 299n })).toBe(false);
  });

  it('are digested over canonical JSON, so jsonb reordering keys changes nothing and a changed value does', () => {
    expect(canonicalJson({ b: [1, { d: null, c: 'x' }], a: 1, u: undefined })).toBe('{"a":1,"b":[1,{"c":"x","d":null}]}');
    const snapshot = { stream: 's', revision: 1, position: { commit: 1n, prepare: 2n }, reach: { position: { commit: 1n, prepare: 2n }, micros: 3n }, state: { a: 1, b: 2 } };
    expect(snapshotDigest({ ...snapshot, state: { b: 2, a: 1 } })).toBe(snapshotDigest(snapshot));
    expect(snapshotDigest({ ...snapshot, state: { a: 1, b: 3 } })).not.toBe(snapshotDigest(snapshot));
    expect(snapshotDigest({ ...snapshot, position: { commit: 1n, prepare: 3n } })).not.toBe(snapshotDigest(snapshot));
  });
});
