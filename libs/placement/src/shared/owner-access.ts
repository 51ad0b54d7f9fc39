import type { ConsumerState } from '#domain/consumer/index.js';
import type { EventOwner } from '../ledger/event-owners.js';

/**
 * The judgement of a route judged against its data (the API's Access): refuses an owner the
 * caller may not act for. null is no project's data (a provider's), for callers who act for all.
 */
export interface OwnerAccess {
  require(owner: EventOwner | null): void;
}

/** Who holds a consumer in a state: nobody once it is absent. */
export const holderOf = (state: ConsumerState | undefined): EventOwner | null =>
  (state?.status === 'active' ? { projectId: state.projectId, userId: state.userId } : null);

/**
 * A write to one consumer, judged against whoever holds it before and whoever holds it after:
 * a caller may neither take another project's consumer nor charge another project with one. A
 * consumer nobody holds either way is no project's.
 */
export function judgeConsumerWrite(access: OwnerAccess, before: EventOwner | null, after: EventOwner | null): void {
  const owners = [before, after].filter((owner): owner is EventOwner => owner !== null);
  for (const owner of owners.length > 0 ? owners : [null]) access.require(owner);
}
