import { streamOf } from './ledger-fixtures.js';
import { providerClaims } from './provider-claims.js';

const created = { type: 'ResourceProviderCreated', data: { uuid: 'rp', name: 'rp', parent_provider_uuid: null, generation: 0 } };
const inventory = { type: 'InventoriesSet', data: { inventories: { VCPU: { total: 8, reserved: 0, min_unit: 1, max_unit: 8, step_size: 1, allocation_ratio: 1 } }, generation: 1 } };
const allocations = (generation: number, consumers: Record<string, Record<string, number>>) =>
  ({ type: 'ProviderAllocationsChanged', data: { consumers, generation } });

describe('claims on a provider', () => {
  it('name the write that began each holding and the latest one that set it, oldest claim first', () => {
    const events = streamOf('provider-rp', [
      created, inventory,
      allocations(2, { c1: { VCPU: 1 } }),
      allocations(3, { c2: { VCPU: 2 } }),
      allocations(4, { c1: { VCPU: 3 } }),
    ]);
    const { state, claims } = providerClaims(events);
    expect(state.status).toBe('active');
    expect(claims.map((claim) => [claim.consumerUuid, claim.resources, claim.claimed.revision, claim.lastWritten.revision]))
      .toEqual([['c1', { VCPU: 3 }, 2, 4], ['c2', { VCPU: 2 }, 3, 3]]);
  });

  it('forget a released holding, so a later claim begins anew', () => {
    const events = streamOf('provider-rp', [
      created, inventory, allocations(2, { c1: { VCPU: 1 } }), allocations(2, { c1: {} }), allocations(3, { c1: { VCPU: 1 } }),
    ]);
    const [claim] = providerClaims(events).claims;
    expect(claim.claimed.revision).toBe(4);
    expect(claim.claimed.metadata.requestId).toBe('req-5');
  });

  it('agree with the state the domain replays', () => {
    const events = streamOf('provider-rp', [created, inventory, allocations(2, { c1: { VCPU: 1 }, c2: { VCPU: 1 } }), allocations(3, { c2: {} })]);
    const { state, claims } = providerClaims(events);
    expect(state.status === 'active' && state.allocations).toEqual({ c1: { VCPU: 1 } });
    expect(claims.map((claim) => claim.consumerUuid)).toEqual(['c1']);
  });

  it('are none for a deleted provider, nor carried into one created again under its uuid', () => {
    const deleted = { type: 'ResourceProviderDeleted', data: { generation: 1 } };
    expect(providerClaims(streamOf('provider-rp', [created, deleted])).claims).toEqual([]);
    const again = streamOf('provider-rp', [created, inventory, allocations(2, { c1: { VCPU: 1 } }), deleted, created]);
    expect(providerClaims(again).claims).toEqual([]);
  });
});
