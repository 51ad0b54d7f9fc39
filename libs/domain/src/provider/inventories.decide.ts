import { badRequest, conflict, notFound } from '../shared/domain-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { Inventories, Inventory, capacity } from './inventory.js';
import { requireActive, requireGeneration } from './provider-guards.js';
import { ProviderEvent } from './provider.events.js';
import { ActiveProvider, ProviderState } from './provider.state.js';

interface InventoryRules {
  /** From 1.26 reserved may equal total (capacity 0 is allowed). */
  readonly reservedCanBeTotal: boolean;
  /** Classes named in the command that do not exist (looked up by the handler). */
  readonly unknownClasses: readonly string[];
}

export type SetInventories = InventoryRules & { type: 'SetInventories'; uuid: string; generation: number; inventories: Inventories };
export type AddInventory = InventoryRules & { type: 'AddInventory'; uuid: string; resourceClass: string; inventory: Inventory };
export type UpdateInventory = InventoryRules & { type: 'UpdateInventory'; uuid: string; generation: number; resourceClass: string; inventory: Inventory };
export type DeleteInventory = {
  type: 'DeleteInventory'; uuid: string; resourceClass: string;
  /** Upstream resolves the class name before anything else, so an unknown class has its own 404. */
  unknownClasses: readonly string[];
};
export type DeleteAllInventories = { type: 'DeleteAllInventories'; uuid: string };

const GENERATION_CONFLICT = 'resource provider generation conflict';

/** Upstream's InvalidInventoryCapacity message, or null when the capacity is acceptable. */
function capacityProblem(uuid: string, resourceClass: string, inventory: Inventory, reservedCanBeTotal: boolean): string | null {
  const cap = capacity(inventory);
  if (reservedCanBeTotal ? cap >= 0 : cap > 0) return null;
  const comparison = reservedCanBeTotal ? 'greater than total' : 'greater than or equal to total';
  return `Invalid inventory for '${resourceClass}' on resource provider '${uuid}'. The reserved value is ${comparison}.`;
}

function inUseMessage(classes: readonly string[], uuid: string): string {
  return `Inventory for '${classes.join(', ')}' on resource provider '${uuid}' in use.`;
}

function classesInUse(provider: ActiveProvider, classes: readonly string[]): string[] {
  return classes.filter((rc) => (provider.usages[rc] ?? 0) > 0);
}

function inventoriesSet(provider: ActiveProvider, inventories: Inventories): ProviderEvent[] {
  return [{ type: 'InventoriesSet', data: { inventories, generation: provider.generation + 1, v: 1 } }];
}

export function decideSetInventories(command: SetInventories, state: ProviderState): ProviderEvent[] {
  const provider = requireActive(state, command.uuid);
  requireGeneration(provider, command.generation, GENERATION_CONFLICT);
  for (const [rc, inventory] of Object.entries(command.inventories)) {
    const problem = capacityProblem(provider.uuid, rc, inventory, command.reservedCanBeTotal);
    if (problem) throw badRequest(`Unable to update inventory for resource provider ${provider.uuid}: ${problem}`);
  }
  if (command.unknownClasses.length > 0) {
    throw badRequest(
      `Unknown resource class in inventory for resource provider ${provider.uuid}: No such resource class ${command.unknownClasses[0]}.`,
    );
  }
  const removed = Object.keys(provider.inventories).filter((rc) => !Object.hasOwn(command.inventories, rc));
  const busy = classesInUse(provider, removed);
  if (busy.length > 0) {
    throw conflict(`update conflict: ${inUseMessage(busy, provider.uuid)}`, ErrorCode.INVENTORY_INUSE);
  }
  return inventoriesSet(provider, command.inventories);
}

export function decideAddInventory(command: AddInventory, state: ProviderState): ProviderEvent[] {
  const provider = requireActive(state, command.uuid);
  const rc = command.resourceClass;
  const prefix = `Unable to create inventory for resource provider ${provider.uuid}`;
  const problem = capacityProblem(provider.uuid, rc, command.inventory, command.reservedCanBeTotal);
  if (problem) throw badRequest(`${prefix}: ${problem}`);
  if (command.unknownClasses.length > 0) throw badRequest(`${prefix}: No such resource class ${rc}.`);
  if (Object.hasOwn(provider.inventories, rc)) {
    throw conflict(`Update conflict: Inventory for '${rc}' on resource provider '${provider.uuid}' already exists.`, ErrorCode.CONCURRENT_UPDATE);
  }
  return inventoriesSet(provider, { ...provider.inventories, [rc]: command.inventory });
}

export function decideUpdateInventory(command: UpdateInventory, state: ProviderState): ProviderEvent[] {
  const provider = requireActive(state, command.uuid);
  const rc = command.resourceClass;
  requireGeneration(provider, command.generation, GENERATION_CONFLICT);
  const problem = capacityProblem(provider.uuid, rc, command.inventory, command.reservedCanBeTotal);
  if (problem) throw badRequest(`Unable to update inventory for resource provider ${provider.uuid}: ${problem}`);
  // Upstream lets ResourceClassNotFound escape its handler here: a 404, not the 400 of POST.
  if (command.unknownClasses.length > 0) throw notFound(`No such resource class ${rc}.`);
  if (!Object.hasOwn(provider.inventories, rc)) {
    throw badRequest(
      `No inventory record with resource class for resource provider ${provider.uuid}: No inventory of class ${rc} found.`,
    );
  }
  return inventoriesSet(provider, { ...provider.inventories, [rc]: command.inventory });
}

export function decideDeleteInventory(command: DeleteInventory, state: ProviderState): ProviderEvent[] {
  const provider = requireActive(state, command.uuid);
  const rc = command.resourceClass;
  const notFoundPrefix = `No inventory of class ${rc} found for delete`;
  if (command.unknownClasses.length > 0) throw notFound(`${notFoundPrefix}: No such resource class ${rc}.`);
  // Upstream reports an in-use class with the generic concurrent-update code, unlike PUT and DELETE-all.
  if (classesInUse(provider, [rc]).length > 0) {
    throw conflict(`Unable to delete inventory of class ${rc}: ${inUseMessage([rc], provider.uuid)}`, ErrorCode.CONCURRENT_UPDATE);
  }
  if (!Object.hasOwn(provider.inventories, rc)) {
    throw notFound(`${notFoundPrefix}: ${notFoundPrefix}`);
  }
  const { [rc]: _removed, ...rest } = provider.inventories;
  return inventoriesSet(provider, rest);
}

export function decideDeleteAllInventories(command: DeleteAllInventories, state: ProviderState): ProviderEvent[] {
  const provider = requireActive(state, command.uuid);
  const busy = classesInUse(provider, Object.keys(provider.inventories));
  if (busy.length > 0) throw conflict(inUseMessage(busy, provider.uuid), ErrorCode.INVENTORY_INUSE);
  // Even with nothing to delete upstream bumps the generation (set_inventory([]) always does).
  return inventoriesSet(provider, {});
}
