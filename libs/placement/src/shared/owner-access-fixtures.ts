import type { ConsumerState } from '#domain/consumer/index.js';
import type { EventOwner } from '../ledger/event-owners.js';
import type { OwnerAccess } from './owner-access.js';

/** For the judgement specs: a consumer held by a project (and its user), holding nothing. */
export const heldBy = (projectId: string): ConsumerState => ({
  status: 'active', projectId, userId: `user-${projectId}`, consumerType: 'INSTANCE', generation: 1, allocations: {},
});

/** For the judgement specs: a caller who may act for project A alone, recording what it is asked about. */
export function projectAOnly(): OwnerAccess & { asked: (string | null)[] } {
  const asked: (string | null)[] = [];
  return {
    asked,
    require(owner: EventOwner | null) {
      asked.push(owner?.projectId ?? null);
      if (owner?.projectId !== 'A') throw new Error('403');
    },
  };
}
