import { ConsumerAllocations, ConsumerEvent } from './consumer.events.js';

export interface ActiveConsumer {
  readonly status: 'active';
  readonly projectId: string;
  readonly userId: string;
  readonly consumerType: string | null;
  readonly generation: number;
  /** May be empty: upstream keeps a consumer created by an empty claim (generation 0). */
  readonly allocations: ConsumerAllocations;
}

/** Absent covers both "never seen" and "removed": upstream cannot tell them apart either. */
export type ConsumerState = { readonly status: 'absent' } | ActiveConsumer;

export const initialConsumerState = (): ConsumerState => ({ status: 'absent' });

export function evolveConsumer(state: ConsumerState, event: ConsumerEvent): ConsumerState {
  switch (event.type) {
    case 'StreamImported':
      return state;
    case 'ConsumerAllocationsReplaced': {
      const { allocations, project_id, user_id, consumer_type, generation } = event.data;
      return { status: 'active', projectId: project_id, userId: user_id, consumerType: consumer_type, generation, allocations };
    }
    case 'ConsumerRemoved':
      return { status: 'absent' };
  }
}

export const holdsAnything = (state: ConsumerState): state is ActiveConsumer =>
  state.status === 'active' && Object.keys(state.allocations).length > 0;
