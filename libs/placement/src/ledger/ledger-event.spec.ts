import { presentLedgerEvent, toLedgerEvent } from './ledger-event.js';
import { parsePositionToken } from './position-token.js';

const row = {
  prepare: '17', commit: '903', stream_id: 'provider-p1', revision: '2', type: 'InventoriesSet',
  data: { inventories: { VCPU: { total: 8 } }, generation: 1, v: 1 },
  metadata: { requestId: 'req-1', userId: 'alice', projectId: 'ops', roles: ['admin'] },
  time: '2024-03-01T10:42:00.123456Z',
};

describe('ledger events', () => {
  it('are read from a row with the position as bigints', () => {
    const event = toLedgerEvent(row);
    expect(event.position).toEqual({ commit: 903n, prepare: 17n });
    expect(event.revision).toBe(2);
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
    const shown = presentLedgerEvent(toLedgerEvent({ ...row, type: 'TraitCreated', data: { name: 'CUSTOM_X', v: 1 }, metadata: null }));
    expect(shown).toMatchObject({ generation: null, request_id: null, user_id: null, project_id: null, roles: [] });
  });

  it('say how a write was asked for when the metadata records it (a merge patch)', () => {
    const shown = presentLedgerEvent(toLedgerEvent({ ...row, metadata: { ...row.metadata, operation: 'merge-patch' } }));
    expect(shown.operation).toBe('merge-patch');
    expect(presentLedgerEvent(toLedgerEvent(row))).not.toHaveProperty('operation');
  });
});
