import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConsumerClaim, decideClaim, decideRemoval, decideReshape, providersTouched } from '#domain/allocation/index.js';
import { unique } from '#domain/shared/unique.js';
import { ProviderLookups } from '../read-models/provider-lookups.js';
import { DeleteAllocations, ReshapeProviders, WriteAllocations } from './allocation.commands.js';
import { judgeClaims, judgeRemoval } from './claim-access.js';
import { ClaimWriter } from './claim-writer.js';

@CommandHandler(WriteAllocations)
export class WriteAllocationsHandler implements ICommandHandler<WriteAllocations, void> {
  constructor(private readonly claims: ClaimWriter, private readonly lookups: ProviderLookups) {}

  async execute({ form, claims, caller, access }: WriteAllocations) {
    const named = classesNamed(claims);
    await this.claims.write(caller, {
      consumers: claims.map((claim) => claim.consumerUuid),
      presumedNew: claims.filter((claim) => claim.expectedGeneration === null).map((claim) => claim.consumerUuid),
      providers: (consumers) => providersTouched(claims, consumers),
      decide: async (state) => {
        judgeClaims(access, claims, state.consumers);
        return decideClaim({ type: 'ClaimAllocations', form, claims, unknownClasses: await this.lookups.unknownResourceClasses(named) }, state);
      },
    });
  }
}

@CommandHandler(DeleteAllocations)
export class DeleteAllocationsHandler implements ICommandHandler<DeleteAllocations, void> {
  constructor(private readonly claims: ClaimWriter) {}

  async execute({ consumerUuid, caller, access }: DeleteAllocations) {
    await this.claims.write(caller, {
      consumers: [consumerUuid],
      providers: (consumers) => {
        const consumer = consumers[consumerUuid];
        return consumer?.status === 'active' ? Object.keys(consumer.allocations) : [];
      },
      decide: (state) => {
        judgeRemoval(access, consumerUuid, state.consumers);
        return decideRemoval({ type: 'RemoveAllocations', consumerUuid }, state);
      },
    });
  }
}

@CommandHandler(ReshapeProviders)
export class ReshapeProvidersHandler implements ICommandHandler<ReshapeProviders, void> {
  constructor(private readonly claims: ClaimWriter, private readonly lookups: ProviderLookups) {}

  async execute({ inventories, claims, caller, access }: ReshapeProviders) {
    const named = unique([...inventories.flatMap((entry) => Object.keys(entry.inventories)), ...classesNamed(claims)]);
    // Upstream's reshaper words a lost race its own way.
    await this.claims.write(caller, {
      consumers: claims.map((claim) => claim.consumerUuid),
      providers: (consumers) => unique([...inventories.map((entry) => entry.uuid), ...providersTouched(claims, consumers)]),
      decide: async (state) => {
        // The inventories are no project's: judged against the caller, as upstream judges a reshape.
        access.require(caller.projectId === null ? null : { projectId: caller.projectId, userId: caller.userId });
        judgeClaims(access, claims, state.consumers);
        return decideReshape({ type: 'Reshape', inventories, claims, unknownClasses: await this.lookups.unknownResourceClasses(named) }, state);
      },
    }, 'update conflict: ');
  }
}

/** The resource classes the claims name, each once. */
export function classesNamed(claims: readonly ConsumerClaim[]): string[] {
  return unique(claims.flatMap((claim) => Object.values(claim.allocations).flatMap((resources) => Object.keys(resources))));
}
