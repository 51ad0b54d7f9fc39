import type { ClaimState, ConsumerClaim } from '#domain/allocation/index.js';
import { holderOf, judgeConsumerWrite, OwnerAccess } from '../shared/owner-access.js';

/**
 * Each consumer a claim writes, judged against the project and user that hold it as this attempt
 * loaded it and those the claim charges it to, before anything is decided: a refusal says nothing
 * of the consumer's generation or of what it holds, and a consumer taken over by a racing writer
 * is judged again on the attempt that reads it.
 */
export function judgeClaims(access: OwnerAccess, claims: readonly ConsumerClaim[], consumers: ClaimState['consumers']): void {
  for (const claim of claims) {
    judgeConsumerWrite(access, holderOf(consumers[claim.consumerUuid]), { projectId: claim.projectId, userId: claim.userId });
  }
}

/** A removal takes the consumer from whoever holds it; one nobody holds is no project's. */
export function judgeRemoval(access: OwnerAccess, consumerUuid: string, consumers: ClaimState['consumers']): void {
  judgeConsumerWrite(access, holderOf(consumers[consumerUuid]), null);
}
