import { badRequest } from '../shared/domain-error.js';
import { requireActive, requireGeneration } from './provider-guards.js';
import { ProviderEvent } from './provider.events.js';
import { ProviderState } from './provider.state.js';

export type SetProviderTraits = { type: 'SetProviderTraits'; uuid: string; generation: number; traits: readonly string[]; unknownTraits: readonly string[] };
export type DeleteProviderTraits = { type: 'DeleteProviderTraits'; uuid: string };

const unique = (values: readonly string[]) => [...new Set(values)];

export function decideSetTraits(command: SetProviderTraits, state: ProviderState): ProviderEvent[] {
  const provider = requireActive(state, command.uuid);
  requireGeneration(provider, command.generation,
    `Resource provider's generation already changed. Please update the generation and try again.`);
  if (command.unknownTraits.length > 0) throw badRequest(`No such trait(s): ${command.unknownTraits.join(', ')}.`);
  return [{ type: 'TraitsSet', data: { traits: unique(command.traits), generation: provider.generation + 1, v: 1 } }];
}

export function decideDeleteTraits(command: DeleteProviderTraits, state: ProviderState): ProviderEvent[] {
  const provider = requireActive(state, command.uuid);
  return [{ type: 'TraitsSet', data: { traits: [], generation: provider.generation + 1, v: 1 } }];
}
