import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConsumerClaim, decideClaim, providersTouched } from '#domain/allocation/index.js';
import { mergeAllocationsPatch } from '#domain/allocation-patch/index.js';
import { ProviderLookups } from '../read-models/provider-lookups.js';
import { PatchAllocations } from './allocation.commands.js';
import { classesNamed } from './allocation-command.handlers.js';
import { judgeClaims } from './claim-access.js';
import { ClaimWriter } from './claim-writer.js';

/** What the ledger history shows of a patch: its events are the claim's own, marked in the metadata. */
const MERGE_PATCH_OPERATION = { operation: 'merge-patch' } as const;

/**
 * The patch is merged into the consumer as loaded for each attempt, inside the claim's decide, so
 * a racing writer makes it merge again on fresher state rather than overwrite what that writer did;
 * the merged set then takes the very path of PUT /allocations/{consumer} (decideClaim, form
 * 'consumer'): generation check, capacity, units, removal of a consumer left with nothing.
 */
@CommandHandler(PatchAllocations)
export class PatchAllocationsHandler implements ICommandHandler<PatchAllocations, void> {
  constructor(private readonly claims: ClaimWriter, private readonly lookups: ProviderLookups) {}

  async execute({ consumerUuid, patch, caller, access }: PatchAllocations) {
    await this.claims.write(caller, {
      consumers: [consumerUuid],
      providers: (consumers) => {
        const current = consumers[consumerUuid];
        // An absent consumer is refused by decide; there is nothing to load for it.
        if (current?.status !== 'active') return [];
        return providersTouched([mergeAllocationsPatch(consumerUuid, current, patch)], consumers);
      },
      decide: async (state) => {
        const current = state.consumers[consumerUuid] ?? { status: 'absent' as const };
        // A consumer nobody holds is no project's: to a caller who may not act for every project
        // it is refused (403), not reported missing (404), as GET /allocations/{consumer} does.
        if (current.status !== 'active') access.require(null);
        const claim: ConsumerClaim = mergeAllocationsPatch(consumerUuid, current, patch);
        judgeClaims(access, [claim], state.consumers);
        const unknownClasses = await this.lookups.unknownResourceClasses(classesNamed([claim]));
        return decideClaim({ type: 'ClaimAllocations', form: 'consumer', claims: [claim], unknownClasses }, state);
      },
      metadata: MERGE_PATCH_OPERATION,
    });
  }
}
