import type { ClaimForm, ConsumerClaim, ReshapedInventory } from '#domain/allocation/index.js';
import type { AllocationsPatch } from '#domain/allocation-patch/index.js';
import { Caller } from '../shared/caller.js';
import type { OwnerAccess } from '../shared/owner-access.js';

/*
 * Every command that writes consumers carries the judgement of the route that asked (`access`):
 * each consumer is judged against its owner before and after (claim-access.ts).
 */

/** PUT /allocations/{consumer} ('consumer') or POST /allocations ('batch'): replace each consumer's whole set. */
export class WriteAllocations {
  constructor(readonly form: ClaimForm, readonly claims: readonly ConsumerClaim[], readonly caller: Caller, readonly access: OwnerAccess) {}
}

/** DELETE /allocations/{consumer}. */
export class DeleteAllocations {
  constructor(readonly consumerUuid: string, readonly caller: Caller, readonly access: OwnerAccess) {}
}

/** POST /reshaper: new inventories and the allocations that move with them, in one claim. */
export class ReshapeProviders {
  constructor(
    readonly inventories: readonly ReshapedInventory[], readonly claims: readonly ConsumerClaim[], readonly caller: Caller, readonly access: OwnerAccess,
  ) {}
}

/** PATCH /ledger/allocations/{consumer}: a merge patch of the consumer's allocations, claimed as the merged whole. */
export class PatchAllocations {
  constructor(readonly consumerUuid: string, readonly patch: AllocationsPatch, readonly caller: Caller, readonly access: OwnerAccess) {}
}
