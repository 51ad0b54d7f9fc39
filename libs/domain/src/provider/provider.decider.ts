import { Decider } from '../shared/decider.js';
import {
  AddInventory, DeleteAllInventories, DeleteInventory, SetInventories, UpdateInventory,
  decideAddInventory, decideDeleteAllInventories, decideDeleteInventory, decideSetInventories, decideUpdateInventory,
} from './inventories.decide.js';
import { CreateProvider, DeleteProvider, UpdateProvider, decideCreate, decideDelete, decideUpdate } from './provider-lifecycle.decide.js';
import { ProviderEvent } from './provider.events.js';
import { ProviderState, evolveProvider, initialProviderState } from './provider.state.js';
import { DeleteProviderTraits, SetProviderTraits, decideDeleteTraits, decideSetTraits } from './traits.decide.js';
import { SetProviderAggregates, decideSetAggregates } from './aggregates.decide.js';

export type ProviderCommand =
  | CreateProvider | UpdateProvider | DeleteProvider
  | SetInventories | AddInventory | UpdateInventory | DeleteInventory | DeleteAllInventories
  | SetProviderTraits | DeleteProviderTraits | SetProviderAggregates;

export function decideProvider(command: ProviderCommand, state: ProviderState): ProviderEvent[] {
  switch (command.type) {
    case 'CreateProvider': return decideCreate(command, state);
    case 'UpdateProvider': return decideUpdate(command, state);
    case 'DeleteProvider': return decideDelete(command, state);
    case 'SetInventories': return decideSetInventories(command, state);
    case 'AddInventory': return decideAddInventory(command, state);
    case 'UpdateInventory': return decideUpdateInventory(command, state);
    case 'DeleteInventory': return decideDeleteInventory(command, state);
    case 'DeleteAllInventories': return decideDeleteAllInventories(command, state);
    case 'SetProviderTraits': return decideSetTraits(command, state);
    case 'DeleteProviderTraits': return decideDeleteTraits(command, state);
    case 'SetProviderAggregates': return decideSetAggregates(command, state);
  }
}

export const providerDecider: Decider<ProviderCommand, ProviderEvent, ProviderState> = {
  initialState: initialProviderState,
  evolve: evolveProvider,
  decide: decideProvider,
};
