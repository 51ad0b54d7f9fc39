import { badRequest } from '../shared/domain-error.js';
import { requireActive, requireGeneration } from './provider-guards.js';
import { ProviderEvent } from './provider.events.js';
import { ProviderState } from './provider.state.js';

/** Traits and aggregates: the provider's labels. */
export type SetProviderTraits = { type: 'SetProviderTraits'; uuid: string; generation: number; traits: readonly string[]; unknownTraits: readonly string[] };
export type DeleteProviderTraits = { type: 'DeleteProviderTraits'; uuid: string };
export type SetProviderAggregates = {
  type: 'SetProviderAggregates'; uuid: string;
  /** Required from 1.19; before that the body is a bare list and no generation is checked. */
  generation: number | undefined;
  aggregates: readonly string[];
  /** Before 1.19 setting aggregates did not move the generation, as upstream. */
  incrementGeneration: boolean;
};

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

export function decideSetAggregates(command: SetProviderAggregates, state: ProviderState): ProviderEvent[] {
  const provider = requireActive(state, command.uuid);
  requireGeneration(provider, command.generation,
    `Resource provider's generation already changed. Please update the generation and try again.`);
  const generation = command.incrementGeneration ? provider.generation + 1 : provider.generation;
  return [{ type: 'AggregatesSet', data: { aggregates: unique(command.aggregates), generation, v: 1 } }];
}
