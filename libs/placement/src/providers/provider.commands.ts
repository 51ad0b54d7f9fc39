import type {
  AddInventory, DeleteAllInventories, DeleteInventory, DeleteProviderTraits, SetInventories, SetProviderAggregates,
  SetProviderTraits, UpdateInventory,
} from '#domain/index.js';
import { Caller } from '../shared/caller.js';

type WithoutFacts<C, Facts extends string> = Omit<C, Facts>;

export class CreateResourceProvider {
  constructor(readonly uuid: string, readonly name: string, readonly parentUuid: string | null, readonly caller: Caller) {}
}

export class UpdateResourceProvider {
  constructor(
    readonly uuid: string, readonly name: string, readonly parentUuid: string | null | undefined,
    readonly allowReparenting: boolean, readonly caller: Caller,
  ) {}
}

export class DeleteResourceProvider {
  constructor(readonly uuid: string, readonly caller: Caller) {}
}

export type InventoryChange =
  | WithoutFacts<SetInventories, 'unknownClasses'> | WithoutFacts<AddInventory, 'unknownClasses'>
  | WithoutFacts<UpdateInventory, 'unknownClasses'> | WithoutFacts<DeleteInventory, 'unknownClasses'> | DeleteAllInventories;

export class ChangeInventories {
  constructor(readonly change: InventoryChange, readonly caller: Caller) {}
}

export type TagChange = WithoutFacts<SetProviderTraits, 'unknownTraits'> | DeleteProviderTraits | SetProviderAggregates;

export class ChangeProviderTags {
  constructor(readonly change: TagChange, readonly caller: Caller) {}
}
