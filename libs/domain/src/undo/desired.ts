import type { ConsumerAllocations } from '../consumer/consumer.events.js';
import type { ConsumerState } from '../consumer/consumer.state.js';
import type { Inventories } from '../provider/inventory.js';
import type { ProviderState } from '../provider/provider.state.js';
import type { Target, UndoMode } from './undo-input.js';

/** What a provider in scope is to be: as it was (its attributes; allocations follow the consumers), gone, or left alone. */
export type DesiredProvider =
  | {
      readonly kind: 'active'; readonly name: string; readonly parentUuid: string | null;
      readonly inventories: Inventories; readonly traits: readonly string[]; readonly aggregates: readonly string[];
    }
  | { readonly kind: 'gone' }
  | { readonly kind: 'keep' };

export type DesiredConsumer =
  | { readonly kind: 'active'; readonly projectId: string; readonly userId: string; readonly consumerType: string | null; readonly allocations: ConsumerAllocations }
  | { readonly kind: 'gone' }
  | { readonly kind: 'keep' };

export function desiredProvider(mode: UndoMode, now: ProviderState, target: Target<ProviderState>): DesiredProvider {
  const then = target.then;
  if (then.status === 'active') {
    return { kind: 'active', name: then.name, parentUuid: then.parentUuid, inventories: then.inventories, traits: then.traits, aggregates: then.aggregates };
  }
  return mode === 'revert' && now.status === 'active' ? { kind: 'gone' } : { kind: 'keep' };
}

export function desiredConsumer(mode: UndoMode, now: ConsumerState, target: Target<ConsumerState>): DesiredConsumer {
  const then = target.then;
  if (then.status === 'active') {
    return { kind: 'active', projectId: then.projectId, userId: then.userId, consumerType: then.consumerType, allocations: then.allocations };
  }
  return mode === 'revert' && now.status === 'active' ? { kind: 'gone' } : { kind: 'keep' };
}
