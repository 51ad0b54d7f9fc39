import { requireActive, requireGeneration } from './provider-guards.js';
import { ProviderEvent } from './provider.events.js';
import { ProviderState } from './provider.state.js';
import { unique } from '../shared/unique.js';

export type SetProviderAggregates = {
  type: 'SetProviderAggregates'; uuid: string;
  /** Required from 1.19; before that the body is a bare list and no generation is checked. */
  generation: number | undefined;
  aggregates: readonly string[];
  /** Before 1.19 setting aggregates did not move the generation, as upstream. */
  incrementGeneration: boolean;
};

export function decideSetAggregates(command: SetProviderAggregates, state: ProviderState): ProviderEvent[] {
  const provider = requireActive(state, command.uuid);
  requireGeneration(provider, command.generation,
    `Resource provider's generation already changed. Please update the generation and try again.`);
  const generation = command.incrementGeneration ? provider.generation + 1 : provider.generation;
  return [{ type: 'AggregatesSet', data: { aggregates: unique(command.aggregates), generation, v: 1 } }];
}
