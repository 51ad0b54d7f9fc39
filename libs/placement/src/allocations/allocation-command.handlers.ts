import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConsumerClaim, decideClaim, decideRemoval, decideReshape, providersTouched } from '#domain/allocation/index.js';
import { ProviderLookups } from '../read-models/provider-lookups.js';
import { DeleteAllocations, ReshapeProviders, WriteAllocations } from './allocation.commands.js';
import { ClaimRunner } from './claim-runner.js';

@CommandHandler(WriteAllocations)
export class WriteAllocationsHandler implements ICommandHandler<WriteAllocations, void> {
  constructor(private readonly runner: ClaimRunner, private readonly lookups: ProviderLookups) {}

  execute({ form, claims, caller }: WriteAllocations) {
    const named = classesNamed(claims);
    return this.runner.run({
      consumers: claims.map((claim) => claim.consumerUuid),
      presumedNew: claims.filter((claim) => claim.expectedGeneration === null).map((claim) => claim.consumerUuid),
      providers: (consumers) => providersTouched(claims, consumers),
      decide: async (state) => decideClaim(
        { type: 'ClaimAllocations', form, claims, unknownClasses: await this.lookups.unknownResourceClasses(named) }, state),
    }, caller);
  }
}

@CommandHandler(DeleteAllocations)
export class DeleteAllocationsHandler implements ICommandHandler<DeleteAllocations, void> {
  constructor(private readonly runner: ClaimRunner) {}

  execute({ consumerUuid, caller }: DeleteAllocations) {
    return this.runner.run({
      consumers: [consumerUuid],
      providers: (consumers) => {
        const consumer = consumers[consumerUuid];
        return consumer?.status === 'active' ? Object.keys(consumer.allocations) : [];
      },
      decide: (state) => decideRemoval({ type: 'RemoveAllocations', consumerUuid }, state),
    }, caller);
  }
}

@CommandHandler(ReshapeProviders)
export class ReshapeProvidersHandler implements ICommandHandler<ReshapeProviders, void> {
  constructor(private readonly runner: ClaimRunner, private readonly lookups: ProviderLookups) {}

  execute({ inventories, claims, caller }: ReshapeProviders) {
    const named = [...new Set([...inventories.flatMap((entry) => Object.keys(entry.inventories)), ...classesNamed(claims)])];
    return this.runner.run({
      consumers: claims.map((claim) => claim.consumerUuid),
      providers: (consumers) => [...new Set([...inventories.map((entry) => entry.uuid), ...providersTouched(claims, consumers)])],
      decide: async (state) => decideReshape(
        { type: 'Reshape', inventories, claims, unknownClasses: await this.lookups.unknownResourceClasses(named) }, state),
      racePrefix: 'update conflict: ',
    }, caller);
  }
}

function classesNamed(claims: readonly ConsumerClaim[]): string[] {
  return [...new Set(claims.flatMap((claim) => Object.values(claim.allocations).flatMap((resources) => Object.keys(resources))))];
}
