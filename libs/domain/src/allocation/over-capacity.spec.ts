import { ConsumerAllocations, ConsumerEvent } from '../consumer/consumer.events.js';
import { ConsumerState, evolveConsumer, initialConsumerState } from '../consumer/consumer.state.js';
import { DomainError } from '../shared/domain-error.js';
import { Inventories, inventoryWithDefaults } from '../provider/inventory.js';
import { ProviderEvent, ProviderHolding } from '../provider/provider.events.js';
import { ProviderState, evolveProvider, initialProviderState } from '../provider/provider.state.js';
import { ClaimAllocations, ClaimForm, ClaimState, ConsumerClaim } from './claim.js';
import { decideClaim } from './claim.decide.js';

// upstream bug 2104040 (commit 5ac4c70b): a provider pushed over capacity by an inventory change
// still takes claims that leave the over-capacity class no worse than before.

const CN = 'c0ffee00-0000-4000-8000-000000000001';
const CN2 = 'c0ffee00-0000-4000-8000-000000000002';
const VM = 'aaaaaaaa-0000-4000-8000-000000000001';
const VM2 = 'aaaaaaaa-0000-4000-8000-000000000002';
const OTHER = 'aaaaaaaa-0000-4000-8000-0000000000ff';

const inventoriesSet = (inventories: Inventories, generation: number): ProviderEvent =>
  ({ type: 'InventoriesSet', data: { inventories, generation, v: 1 } });
const providerChanged = (consumers: Record<string, ProviderHolding>, generation: number): ProviderEvent =>
  ({ type: 'ProviderAllocationsChanged', data: { consumers, generation, v: 1 } });
const replaced = (allocations: ConsumerAllocations, generation: number): ConsumerEvent =>
  ({ type: 'ConsumerAllocationsReplaced', data: { allocations, project_id: 'proj', user_id: 'user', consumer_type: null, generation, v: 1 } });
const provider = (uuid: string, ...events: ProviderEvent[]): ProviderState =>
  [{ type: 'ResourceProviderCreated', data: { uuid, name: uuid, parent_provider_uuid: null, generation: 0, v: 1 } } as ProviderEvent, ...events]
    .reduce(evolveProvider, initialProviderState());
const consumer = (...events: ConsumerEvent[]): ConsumerState => events.reduce(evolveConsumer, initialConsumerState());

/**
 * Given cn1 with VCPU 16 and MEMORY_MB 1024, VM holding VCPU 8 + MEMORY_MB 100 and OTHER VCPU 6,
 * when VCPU's total is lowered to 10: usage 14 against capacity 10. DISK_GB is fully reserved and
 * unused: capacity 0, usage 0. cn2 has room.
 */
const overCommitted: ClaimState = {
  providers: {
    [CN]: provider(CN,
      inventoriesSet({ VCPU: inventoryWithDefaults({ total: 16 }), MEMORY_MB: inventoryWithDefaults({ total: 1024 }) }, 1),
      providerChanged({ [VM]: { VCPU: 8, MEMORY_MB: 100 } }, 2),
      providerChanged({ [OTHER]: { VCPU: 6 } }, 3),
      inventoriesSet({
        VCPU: inventoryWithDefaults({ total: 10 }),
        MEMORY_MB: inventoryWithDefaults({ total: 1024 }),
        DISK_GB: inventoryWithDefaults({ total: 10, reserved: 10 }),
      }, 4)),
    [CN2]: provider(CN2, inventoriesSet({ VCPU: inventoryWithDefaults({ total: 32 }) }, 1)),
  },
  consumers: {
    [VM]: consumer(replaced({ [CN]: { VCPU: 8, MEMORY_MB: 100 } }, 1)),
    [OTHER]: consumer(replaced({ [CN]: { VCPU: 6 } }, 1)),
  },
};

const part = (consumerUuid: string, allocations: ConsumerAllocations, extra: Partial<ConsumerClaim> = {}): ConsumerClaim =>
  ({ consumerUuid, allocations, projectId: 'proj', userId: 'user', ...extra });
const claim = (claims: ConsumerClaim[], form: ClaimForm = 'consumer'): ClaimAllocations =>
  ({ type: 'ClaimAllocations', form, claims, unknownClasses: [] });

function when(command: ClaimAllocations) {
  return {
    thenAllowedWith(holdings: Record<string, ProviderHolding>) {
      const decision = decideClaim(command, overCommitted);
      expect(decision.providers[CN]).toEqual([providerChanged(holdings, 5)]);
    },
    thenRefusedFor(rc: string, uuid = CN) {
      let error: unknown;
      try { decideClaim(command, overCommitted); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        kind: 'conflict',
        detail: `Unable to allocate inventory: Unable to create allocation for '${rc}' on resource provider '${uuid}'. The requested amount would exceed the capacity.`,
      });
    },
  };
}

describe('ClaimAllocations on a provider already over capacity', () => {
  it('lets a consumer shrink the over-capacity class, even if still over', () => {
    when(claim([part(VM, { [CN]: { VCPU: 7, MEMORY_MB: 100 } })])).thenAllowedWith({ [VM]: { VCPU: 7, MEMORY_MB: 100 } });
  });

  it('lets a consumer keep its amounts while moving to another project and user', () => {
    when(claim([part(VM, { [CN]: { VCPU: 8, MEMORY_MB: 100 } }, { projectId: 'proj-b', userId: 'user-b' })]))
      .thenAllowedWith({ [VM]: { VCPU: 8, MEMORY_MB: 100 } });
  });

  it('lets a consumer change another class that has room, keeping the over-capacity one', () => {
    when(claim([part(VM, { [CN]: { VCPU: 8, MEMORY_MB: 512 } })])).thenAllowedWith({ [VM]: { VCPU: 8, MEMORY_MB: 512 } });
  });

  it('refuses a consumer growing the over-capacity class', () => {
    when(claim([part(VM, { [CN]: { VCPU: 9, MEMORY_MB: 100 } })])).thenRefusedFor('VCPU');
  });

  it('refuses a new consumer any of the over-capacity class', () => {
    when(claim([part(VM2, { [CN]: { VCPU: 1 } })])).thenRefusedFor('VCPU');
  });

  it('refuses the first unit of a class that is over capacity with nothing used (fully reserved)', () => {
    when(claim([part(VM, { [CN]: { VCPU: 8, MEMORY_MB: 100, DISK_GB: 1 } })])).thenRefusedFor('DISK_GB');
  });

  it('judges a batch by its sum: handing units from one consumer to another is no worse', () => {
    when(claim([part(VM, {}), part(VM2, { [CN]: { VCPU: 8 } })], 'batch'))
      .thenAllowedWith({ [VM]: {}, [VM2]: { VCPU: 8 } });
    when(claim([part(VM, { [CN]: { VCPU: 7 } }), part(VM2, { [CN]: { VCPU: 2 } })], 'batch')).thenRefusedFor('VCPU');
  });

  it('lets everyone shrink together, the first consumer carrying the whole reduction', () => {
    when(claim([part(VM, { [CN]: { VCPU: 4 } }), part(OTHER, { [CN]: { VCPU: 6 } })], 'batch'))
      .thenAllowedWith({ [VM]: { VCPU: 4 }, [OTHER]: { VCPU: 6 } });
  });

  it('lets a consumer leave for another provider', () => {
    const decision = decideClaim(claim([part(VM, { [CN2]: { VCPU: 8 } })]), overCommitted);
    expect(decision.providers[CN]).toEqual([providerChanged({ [VM]: {} }, 4)]);
    expect(decision.providers[CN2]).toEqual([providerChanged({ [VM]: { VCPU: 8 } }, 2)]);
  });
});
