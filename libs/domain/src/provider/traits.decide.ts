import { badRequest } from '../shared/domain-error.js';
import { requireActive, requireGeneration } from './provider-guards.js';
import { ProviderEvent } from './provider.events.js';
import { ActiveProvider, ProviderState } from './provider.state.js';
import { unique } from '../shared/unique.js';

export type SetProviderTraits = { type: 'SetProviderTraits'; uuid: string; generation: number; traits: readonly string[]; unknownTraits: readonly string[] };
export type DeleteProviderTraits = { type: 'DeleteProviderTraits'; uuid: string };

/** Upstream's _set_traits moves the generation only when the set of traits actually changes. */
function traitsSet(provider: ActiveProvider, traits: readonly string[]): ProviderEvent[] {
  const wanted = unique(traits);
  const current = new Set(provider.traits);
  if (wanted.length === current.size && wanted.every((t) => current.has(t))) return [];
  return [{ type: 'TraitsSet', data: { traits: wanted, generation: provider.generation + 1, v: 1 } }];
}

export function decideSetTraits(command: SetProviderTraits, state: ProviderState): ProviderEvent[] {
  const provider = requireActive(state, command.uuid);
  requireGeneration(provider, command.generation,
    `Resource provider's generation already changed. Please update the generation and try again.`);
  if (command.unknownTraits.length > 0) {
    // Upstream joins a Python set, so its order is arbitrary; sorted is one stable choice of it.
    throw badRequest(`No such trait ${unique(command.unknownTraits).sort().join(', ')}`);
  }
  return traitsSet(provider, command.traits);
}

export function decideDeleteTraits(command: DeleteProviderTraits, state: ProviderState): ProviderEvent[] {
  return traitsSet(requireActive(state, command.uuid), []);
}
