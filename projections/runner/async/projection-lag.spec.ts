import type { EventStore, LogPosition, RecordedEvent, SqlClient } from '#event-store/index.js';
import { LAG_COUNT_CAP, measureProjectionLag } from './projection-lag.js';

const at = (n: number): LogPosition => ({ commit: BigInt(n), prepare: BigInt(n) });
const event = (n: number) => ({ position: at(n) }) as RecordedEvent;

function given(checkpoints: Record<string, number>, logLength: number) {
  const reads: [LogPosition, number][] = [];
  const db = {
    query: async () => ({ rows: Object.entries(checkpoints).map(([projection, n]) => ({ projection, commit: String(n), position: String(n) })), rowCount: null }),
  } as unknown as SqlClient;
  const store = {
    readAll: async (from: LogPosition, limit: number) => {
      reads.push([from, limit]);
      return Array.from({ length: logLength }, (_, i) => event(i + 1)).filter((e) => e.position.commit > from.commit).slice(0, limit);
    },
  } as unknown as EventStore;
  return { db, store, reads };
}

describe('projection lag', () => {
  it('counts each projection\'s events past its checkpoint, in one read from the furthest behind', async () => {
    const { db, store, reads } = given({ providers: 7, allocations: 10, traits: 4 }, 10);
    expect(await measureProjectionLag(db, store)).toEqual(new Map([['providers', 3], ['allocations', 0], ['traits', 6]]));
    expect(reads).toEqual([[at(4), LAG_COUNT_CAP]]);
  });

  it('says at most the cap', async () => {
    const { db, store } = given({ providers: 0 }, LAG_COUNT_CAP + 50);
    expect(await measureProjectionLag(db, store)).toEqual(new Map([['providers', LAG_COUNT_CAP]]));
  });
});
