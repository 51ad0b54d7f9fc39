import { DomainError } from '../shared/domain-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { Inventories, Inventory, inventoryWithDefaults } from './inventory.js';
import { ProviderCommand, decideProvider } from './provider.decider.js';
import { ProviderEvent } from './provider.events.js';
import { ProviderState, evolveProvider, initialProviderState } from './provider.state.js';

const RP = 'a4f2b1c0-1111-4222-8333-944455556666';

function given(events: ProviderEvent[], usages: Record<string, number> = {}) {
  let state: ProviderState = events.reduce(evolveProvider, initialProviderState());
  // Usages come from allocation events another family records; here they are plain data.
  if (state.status === 'active') state = { ...state, usages };
  return {
    when(command: ProviderCommand) {
      const run = () => decideProvider(command, state);
      return {
        then: (expected: ProviderEvent[]) => expect(run()).toEqual(expected),
        thenThrows(kind: DomainError['kind'], detail: string, code: ErrorCode = ErrorCode.UNDEFINED) {
          let error: unknown;
          try { run(); } catch (e) { error = e; }
          expect(error).toBeInstanceOf(DomainError);
          expect(error).toMatchObject({ kind, detail, code });
        },
      };
    },
  };
}

const created: ProviderEvent = { type: 'ResourceProviderCreated', data: { uuid: RP, name: 'cn1', parent_provider_uuid: null, generation: 0, v: 1 } };
const inv = (total: number, extra: Partial<Inventory> = {}) => inventoryWithDefaults({ total, ...extra });
const setTo = (inventories: Inventories, generation: number): ProviderEvent =>
  ({ type: 'InventoriesSet', data: { inventories, generation, v: 1 } });
const withDisk = [created, setTo({ DISK_GB: inv(2048, { reserved: 512 }) }, 1)];
const rules = { reservedCanBeTotal: false, unknownClasses: [] as string[] };

describe('SetInventories (PUT /resource_providers/{uuid}/inventories)', () => {
  const set = (generation: number, inventories: Inventories, extra: Partial<typeof rules> = {}): ProviderCommand =>
    ({ type: 'SetInventories', uuid: RP, generation, inventories, ...rules, ...extra });

  it('replaces the whole set and bumps the generation by one', () => {
    given(withDisk).when(set(1, { VCPU: inv(8) })).then([setTo({ VCPU: inv(8) }, 2)]);
  });

  it('an empty set still bumps the generation', () => {
    given(withDisk).when(set(1, {})).then([setTo({}, 2)]);
  });

  it('refuses a stale generation with a concurrent-update conflict', () => {
    given(withDisk).when(set(0, { VCPU: inv(8) }))
      .thenThrows('conflict', 'resource provider generation conflict', ErrorCode.CONCURRENT_UPDATE);
  });

  it('checks the generation before the capacity', () => {
    given(withDisk).when(set(7, { VCPU: inv(8, { reserved: 9 }) }))
      .thenThrows('conflict', 'resource provider generation conflict', ErrorCode.CONCURRENT_UPDATE);
  });

  it('refuses reserved == total below 1.26', () => {
    given(withDisk).when(set(1, { IPV4_ADDRESS: inv(253, { reserved: 253 }) })).thenThrows('bad_request',
      `Unable to update inventory for resource provider ${RP}: Invalid inventory for 'IPV4_ADDRESS' on resource provider '${RP}'. The reserved value is greater than or equal to total.`);
  });

  it('accepts reserved == total from 1.26, refuses reserved > total', () => {
    const full = { IPV4_ADDRESS: inv(253, { reserved: 253 }) };
    given(withDisk).when(set(1, full, { reservedCanBeTotal: true })).then([setTo(full, 2)]);
    given(withDisk).when(set(1, { IPV4_ADDRESS: inv(253, { reserved: 512 }) }, { reservedCanBeTotal: true })).thenThrows('bad_request',
      `Unable to update inventory for resource provider ${RP}: Invalid inventory for 'IPV4_ADDRESS' on resource provider '${RP}'. The reserved value is greater than total.`);
  });

  it('measures capacity after the allocation ratio, truncated as int() does', () => {
    // (10 - 9) * 0.5 = 0.5 -> 0: no capacity left.
    given(withDisk).when(set(1, { VCPU: inv(10, { reserved: 9, allocation_ratio: 0.5 }) })).thenThrows('bad_request',
      `Unable to update inventory for resource provider ${RP}: Invalid inventory for 'VCPU' on resource provider '${RP}'. The reserved value is greater than or equal to total.`);
  });

  it('refuses an unknown class, naming the first', () => {
    given(withDisk).when(set(1, { CUSTOM_A: inv(1), CUSTOM_B: inv(1) }, { unknownClasses: ['CUSTOM_A', 'CUSTOM_B'] })).thenThrows('bad_request',
      `Unknown resource class in inventory for resource provider ${RP}: No such resource class CUSTOM_A.`);
  });

  it('refuses to drop a class that has allocations', () => {
    given(withDisk, { DISK_GB: 100 }).when(set(1, { VCPU: inv(8) })).thenThrows('conflict',
      `update conflict: Inventory for 'DISK_GB' on resource provider '${RP}' in use.`, ErrorCode.INVENTORY_INUSE);
  });

  it('lets a class in use shrink below its usage (upstream only logs a warning)', () => {
    given(withDisk, { DISK_GB: 1000 }).when(set(1, { DISK_GB: inv(600) })).then([setTo({ DISK_GB: inv(600) }, 2)]);
  });

  it('answers 404 for a provider that does not exist or was deleted', () => {
    given([]).when(set(0, {})).thenThrows('not_found', `No resource provider with uuid ${RP} found`);
    given([created, { type: 'ResourceProviderDeleted', data: { generation: 0, v: 1 } }]).when(set(0, {}))
      .thenThrows('not_found', `No resource provider with uuid ${RP} found`);
  });
});

describe('AddInventory (POST /resource_providers/{uuid}/inventories)', () => {
  const add = (resourceClass: string, inventory: Inventory, extra: Partial<typeof rules> = {}): ProviderCommand =>
    ({ type: 'AddInventory', uuid: RP, resourceClass, inventory, ...rules, ...extra });

  it('adds one class to those already there, with no generation to match', () => {
    given(withDisk).when(add('VCPU', inv(4)))
      .then([setTo({ DISK_GB: inv(2048, { reserved: 512 }), VCPU: inv(4) }, 2)]);
  });

  it('refuses a class the provider already has', () => {
    given(withDisk).when(add('DISK_GB', inv(10))).thenThrows('conflict',
      `Update conflict: Inventory for 'DISK_GB' on resource provider '${RP}' already exists.`, ErrorCode.CONCURRENT_UPDATE);
  });

  it('refuses a reserved amount that leaves no capacity', () => {
    given([created]).when(add('DISK_GB', inv(256, { reserved: 512 }))).thenThrows('bad_request',
      `Unable to create inventory for resource provider ${RP}: Invalid inventory for 'DISK_GB' on resource provider '${RP}'. The reserved value is greater than or equal to total.`);
  });

  it('refuses an unknown class', () => {
    given([created]).when(add('NO_CLASS_14', inv(2048), { unknownClasses: ['NO_CLASS_14'] })).thenThrows('bad_request',
      `Unable to create inventory for resource provider ${RP}: No such resource class NO_CLASS_14.`);
  });
});

describe('UpdateInventory (PUT /resource_providers/{uuid}/inventories/{rc})', () => {
  const update = (resourceClass: string, generation: number, inventory: Inventory, extra: Partial<typeof rules> = {}): ProviderCommand =>
    ({ type: 'UpdateInventory', uuid: RP, generation, resourceClass, inventory, ...rules, ...extra });

  it('replaces one class and bumps the generation', () => {
    given(withDisk).when(update('DISK_GB', 1, inv(2048, { reserved: 1024 }))).then([setTo({ DISK_GB: inv(2048, { reserved: 1024 }) }, 2)]);
  });

  it('refuses a stale generation', () => {
    given(withDisk).when(update('DISK_GB', 5, inv(2048)))
      .thenThrows('conflict', 'resource provider generation conflict', ErrorCode.CONCURRENT_UPDATE);
  });

  it('refuses a class the provider has no inventory of', () => {
    given(withDisk).when(update('MEMORY_MB', 1, inv(2048))).thenThrows('bad_request',
      `No inventory record with resource class for resource provider ${RP}: No inventory of class MEMORY_MB found.`);
  });

  it('answers 404 for a class that does not exist at all', () => {
    given(withDisk).when(update('CUSTOM_NOPE', 1, inv(1), { unknownClasses: ['CUSTOM_NOPE'] }))
      .thenThrows('not_found', 'No such resource class CUSTOM_NOPE.');
  });

  it('applies the 1.26 capacity rule', () => {
    given(withDisk).when(update('DISK_GB', 1, inv(512, { reserved: 512 }))).thenThrows('bad_request',
      `Unable to update inventory for resource provider ${RP}: Invalid inventory for 'DISK_GB' on resource provider '${RP}'. The reserved value is greater than or equal to total.`);
    given(withDisk).when(update('DISK_GB', 1, inv(512, { reserved: 512 }), { reservedCanBeTotal: true }))
      .then([setTo({ DISK_GB: inv(512, { reserved: 512 }) }, 2)]);
  });
});

describe('DeleteInventory (DELETE /resource_providers/{uuid}/inventories/{rc})', () => {
  const del = (resourceClass: string, unknownClasses: string[] = []): ProviderCommand =>
    ({ type: 'DeleteInventory', uuid: RP, resourceClass, unknownClasses });

  it('removes one class and bumps the generation', () => {
    given([...withDisk, setTo({ DISK_GB: inv(2048, { reserved: 512 }), VCPU: inv(4) }, 2)]).when(del('VCPU'))
      .then([setTo({ DISK_GB: inv(2048, { reserved: 512 }) }, 3)]);
  });

  it('answers 404 for a class the provider lacks, and for an unknown class', () => {
    given(withDisk).when(del('IPV4_ADDRESS')).thenThrows('not_found',
      'No inventory of class IPV4_ADDRESS found for delete: No inventory of class IPV4_ADDRESS found for delete');
    given(withDisk).when(del('CUSTOM_NOPE', ['CUSTOM_NOPE'])).thenThrows('not_found',
      'No inventory of class CUSTOM_NOPE found for delete: No such resource class CUSTOM_NOPE.');
  });

  it('refuses a class in use, with the concurrent-update code', () => {
    given(withDisk, { DISK_GB: 1 }).when(del('DISK_GB')).thenThrows('conflict',
      `Unable to delete inventory of class DISK_GB: Inventory for 'DISK_GB' on resource provider '${RP}' in use.`, ErrorCode.CONCURRENT_UPDATE);
  });
});

describe('DeleteAllInventories (DELETE /resource_providers/{uuid}/inventories, 1.5+)', () => {
  const delAll: ProviderCommand = { type: 'DeleteAllInventories', uuid: RP };

  it('empties the set and bumps the generation, even when already empty', () => {
    given(withDisk).when(delAll).then([setTo({}, 2)]);
    given([created]).when(delAll).then([setTo({}, 1)]);
  });

  it('refuses while any class is in use, naming the classes', () => {
    given([created, setTo({ DISK_GB: inv(10), VCPU: inv(4), MEMORY_MB: inv(64) }, 1)], { DISK_GB: 1, VCPU: 2 }).when(delAll)
      .thenThrows('conflict', `Inventory for 'DISK_GB, VCPU' on resource provider '${RP}' in use.`, ErrorCode.INVENTORY_INUSE);
  });

  it('answers 404 for a missing provider', () => {
    given([]).when(delAll).thenThrows('not_found', `No resource provider with uuid ${RP} found`);
  });
});
