import type { ConsumerState } from '../consumer/consumer.state.js';
import type { ProviderState } from '../provider/provider.state.js';
import type { ConsumerSummary, ProviderSummary } from './undo-plan.types.js';

export function providerSummary(state: ProviderState): ProviderSummary {
  if (state.status !== 'active') return { status: state.status };
  return {
    status: 'active', name: state.name, parent_provider_uuid: state.parentUuid, generation: state.generation,
    inventories: state.inventories, traits: [...state.traits].sort(), aggregates: [...state.aggregates].sort(), usages: state.usages,
  };
}

export function consumerSummary(state: ConsumerState): ConsumerSummary {
  if (state.status !== 'active') return { status: 'absent' };
  return {
    status: 'active', project_id: state.projectId, user_id: state.userId, consumer_type: state.consumerType,
    generation: state.generation, allocations: state.allocations,
  };
}
