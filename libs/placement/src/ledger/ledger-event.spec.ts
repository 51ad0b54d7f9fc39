import type { RecordedEvent } from '#event-store/index.js';
import { formatMicros, presentLedgerEvent, toLedgerEvent } from './ledger-event.js';
import { parsePositionToken } from './position-token.js';

const row: RecordedEvent = {
  position: { commit: 903n, prepare: 17n }, stream: 'provider-p1', revision: 2, type: 'InventoriesSet',
  data: { inventories: { VCPU: { total: 8 } }, generation: 1, v: 1 },
  metadata: { requestId: 'req-1', userId: 'alice', projectId: 'ops', roles: ['admin'] },
  recordedAt: new Date('2024-03-01T10:42:00.123Z'), recordedAtMicros: 1_709_289_720_123_456n,
};

describe('ledger events', () => {
  it('keep the position, and the time to the microsecond where the store kept it', () => {
    const event = toLedgerEvent(row);
    expect(event.position).toEqual({ commit: 903n, prepare: 17n });
    expect(event.time).toBe('2024-03-01T10:42:00.123456Z');
    const { recordedAtMicros: _, ...inMilliseconds } = row;
    expect(toLedgerEvent(inMilliseconds).time).toBe('2024-03-01T10:42:00.123000Z');
  });

  it('format microseconds before the epoch too', () => {
    expect(formatMicros(-1n)).toBe('1969-12-31T23:59:59.999999Z');
  });

  it('show where, when, what, the generation produced and who asked', () => {
    const shown = presentLedgerEvent(toLedgerEvent(row));
    expect(parsePositionToken(shown.position)).toEqual({ commit: 903n, prepare: 17n });
    expect(shown).toEqual({
      position: shown.position, stream: 'provider-p1', revision: 2, time: '2024-03-01T10:42:00.123456Z', type: 'InventoriesSet',
      data: row.data, generation: 1, request_id: 'req-1', user_id: 'alice', project_id: 'ops', roles: ['admin'],
    });
  });

  it('say null where a stream has no generation or the metadata says nothing', () => {
    const shown = presentLedgerEvent(toLedgerEvent({ ...row, type: 'TraitCreated', data: { name: 'CUSTOM_X', v: 1 }, metadata: null as never }));
    expect(shown).toMatchObject({ generation: null, request_id: null, user_id: null, project_id: null, roles: [] });
  });

  it('say how a write was asked for when the metadata records it (a merge patch)', () => {
    const shown = presentLedgerEvent(toLedgerEvent({ ...row, metadata: { ...row.metadata, operation: 'merge-patch' } }));
    expect(shown.operation).toBe('merge-patch');
    expect(presentLedgerEvent(toLedgerEvent(row))).not.toHaveProperty('operation');
  });
});
