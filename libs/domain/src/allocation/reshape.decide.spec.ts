import { writtenOrder } from '../consumer/allocation-order.js';
import { ConsumerEvent } from '../consumer/consumer.events.js';
import { ConsumerState, evolveConsumer, initialConsumerState } from '../consumer/consumer.state.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { Inventories, inventoryWithDefaults } from '../provider/inventory.js';
import { ProviderEvent } from '../provider/provider.events.js';
import { ProviderState, evolveProvider, initialProviderState } from '../provider/provider.state.js';
import { ConsumerClaim } from './claim.js';
import { Reshape, decideReshape } from './reshape.decide.js';

const PARENT = 'p0000000-0000-4000-8000-000000000001';
const CHILD = 'c0000000-0000-4000-8000-000000000002';
const VM = 'v0000000-0000-4000-8000-000000000003';

const inv = (total: number) => inventoryWithDefaults({ total });
const set = (inventories: Inventories, generation: number): ProviderEvent => ({ type: 'InventoriesSet', data: { inventories, generation, v: 1 } });
const changed = (consumers: Record<string, Record<string, number>>, generation: number): ProviderEvent =>
  ({ type: 'ProviderAllocationsChanged', data: { consumers, generation, v: 1 } });
const created = (uuid: string, parent: string | null = null): ProviderEvent =>
  ({ type: 'ResourceProviderCreated', data: { uuid, name: uuid.slice(0, 2), parent_provider_uuid: parent, generation: 0, v: 1 } });
const replaced = (allocations: Record<string, Record<string, number>>, generation: number): ConsumerEvent =>
  ({ type: 'ConsumerAllocationsReplaced', data: { allocations, project_id: 'p', user_id: 'u', consumer_type: null, written_order: writtenOrder(allocations), generation, v: 1 } });

/** A parent with VCPU and DISK_GB, VM holding some of each (parent at generation 2); an empty child at 0. */
const history = {
  providers: {
    [PARENT]: [created(PARENT), set({ VCPU: inv(8), DISK_GB: inv(100) }, 1), changed({ [VM]: { VCPU: 2, DISK_GB: 10 } }, 2)],
    [CHILD]: [created(CHILD, PARENT)],
  },
  consumers: { [VM]: [replaced({ [PARENT]: { VCPU: 2, DISK_GB: 10 } }, 1)] },
};

function given(h: { providers: Record<string, ProviderEvent[]>; consumers: Record<string, ConsumerEvent[]> }) {
  const providers: Record<string, ProviderState> = {};
  for (const [uuid, events] of Object.entries(h.providers)) providers[uuid] = events.reduce(evolveProvider, initialProviderState());
  const consumers: Record<string, ConsumerState> = {};
  for (const [uuid, events] of Object.entries(h.consumers)) consumers[uuid] = events.reduce(evolveConsumer, initialConsumerState());
  return {
    when: (command: Reshape) => ({
      run: () => decideReshape(command, { providers, consumers }),
      thenThrows(kind: DomainError['kind'], detail: string, code: ErrorCode = ErrorCode.UNDEFINED) {
        expect(() => decideReshape(command, { providers, consumers })).toThrow(expect.objectContaining({ kind, detail, code }));
      },
    }),
  };
}

const claim = (allocations: Record<string, Record<string, number>>, expectedGeneration: number | null = 1): ConsumerClaim =>
  ({ consumerUuid: VM, allocations, projectId: 'p', userId: 'u', expectedGeneration });
const reshape = (inventories: Reshape['inventories'], claims: ConsumerClaim[], unknownClasses: string[] = []): Reshape =>
  ({ type: 'Reshape', inventories, claims, unknownClasses });
const moveVcpuToChild = reshape(
  [{ uuid: PARENT, generation: 2, inventories: { DISK_GB: inv(100) } }, { uuid: CHILD, generation: 0, inventories: { VCPU: inv(8) } }],
  [claim({ [PARENT]: { DISK_GB: 10 }, [CHILD]: { VCPU: 2 } })],
);

describe('Reshape (POST /reshaper)', () => {
  it('moves inventory and allocations together: interim inventory, allocations, final inventory, each a generation', () => {
    expect(given(history).when(moveVcpuToChild).run()).toEqual({
      consumers: { [VM]: [replaced({ [PARENT]: { DISK_GB: 10 }, [CHILD]: { VCPU: 2 } }, 2)] },
      providers: {
        [PARENT]: [
          set({ VCPU: inv(8), DISK_GB: inv(100) }, 3),
          changed({ [VM]: { DISK_GB: 10 } }, 4),
          set({ DISK_GB: inv(100) }, 5),
        ],
        [CHILD]: [set({ VCPU: inv(8) }, 1), changed({ [VM]: { VCPU: 2 } }, 2), set({ VCPU: inv(8) }, 3)],
      },
    });
  });

  it('an empty inventory skips the interim step but still ends with a generation', () => {
    const emptied = reshape([{ uuid: PARENT, generation: 2, inventories: {} }], [claim({})]);
    expect(given(history).when(emptied).run()).toEqual({
      consumers: { [VM]: [{ type: 'ConsumerRemoved', data: { generation: 2, v: 1 } }] },
      providers: { [PARENT]: [changed({ [VM]: {} }, 3), set({}, 4)] },
    });
  });

  it('refuses a provider that does not exist with its own code, then a stale provider generation', () => {
    const ghost = 'g0000000-0000-4000-8000-000000000009';
    given(history).when(reshape([{ uuid: ghost, generation: 0, inventories: {} }], [])).thenThrows('bad_request',
      `Resource provider ${ghost} in inventories not found: No resource provider with uuid ${ghost} found`, ErrorCode.RESOURCE_PROVIDER_NOT_FOUND);
    given(history).when(reshape([{ uuid: PARENT, generation: 1, inventories: {} }], [])).thenThrows('conflict',
      `resource provider generation conflict for provider ${PARENT}: actual: 2, given: 1`, ErrorCode.CONCURRENT_UPDATE);
  });

  it('checks consumer generations before any inventory', () => {
    given(history).when(reshape([{ uuid: PARENT, generation: 2, inventories: { CUSTOM_X: inv(1) } }], [claim({}, 99)], ['CUSTOM_X']))
      .thenThrows('conflict', 'consumer generation conflict - expected 1 but got 99', ErrorCode.CONCURRENT_UPDATE);
  });

  it('words an unknown class as malformed reshaper data', () => {
    given(history).when(reshape([{ uuid: PARENT, generation: 2, inventories: { DISK_OF_STEEL: inv(1) } }], [], ['DISK_OF_STEEL']))
      .thenThrows('bad_request', 'malformed reshaper data: No such resource class DISK_OF_STEEL.');
  });

  it('refuses to drop an inventory still allocated, with the inventory-in-use code', () => {
    given(history).when(reshape([{ uuid: PARENT, generation: 2, inventories: { VCPU: inv(8) } }], []))
      .thenThrows('conflict', `update conflict: Inventory for 'DISK_GB' on resource provider '${PARENT}' in use.`, ErrorCode.INVENTORY_INUSE);
  });

  it('checks allocations against the interim inventory', () => {
    const grown = reshape([{ uuid: PARENT, generation: 2, inventories: { VCPU: inv(1), DISK_GB: inv(100) } }], [claim({ [PARENT]: { VCPU: 3, DISK_GB: 10 } })]);
    given(history).when(grown).thenThrows('conflict',
      `Unable to allocate inventory: Unable to create allocation for 'VCPU' on resource provider '${PARENT}'. The requested amount would exceed the capacity.`);
  });

  it('keeps allocations the shrunk inventory no longer covers, as no worse than before (upstream bug 2104040)', () => {
    const shrunk = reshape([{ uuid: PARENT, generation: 2, inventories: { VCPU: inv(1), DISK_GB: inv(100) } }], [claim({ [PARENT]: { VCPU: 2, DISK_GB: 10 } })]);
    expect(given(history).when(shrunk).run().providers[PARENT]).toEqual([
      set({ VCPU: inv(1), DISK_GB: inv(100) }, 3), changed({ [VM]: { VCPU: 2, DISK_GB: 10 } }, 4), set({ VCPU: inv(1), DISK_GB: inv(100) }, 5),
    ]);
  });
});
