import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ActiveProvider, ErrorCode, notFound } from '#domain/index.js';
import { ConsumerState } from '#domain/consumer/index.js';
import { TypedUsageRow } from '../usages/usage-grouping.js';
import { AsOf, describeAsOf } from './as-of.js';
import { UsageFilter, usageRows } from './as-of-state.js';
import { LedgerReplayer } from './replayer.js';

const missingProvider = (uuid: string, asOf: AsOf) =>
  notFound(`No resource provider with uuid ${uuid} found as of ${describeAsOf(asOf)}`, ErrorCode.RESOURCE_PROVIDER_NOT_FOUND);

export interface ProviderAsOf {
  readonly provider: ActiveProvider;
  readonly rootUuid: string;
}

export class GetProviderAsOf {
  constructor(readonly uuid: string, readonly asOf: AsOf) {}
}

/** A provider as it was; 404 before it was created and after it was deleted. */
@QueryHandler(GetProviderAsOf)
export class GetProviderAsOfHandler implements IQueryHandler<GetProviderAsOf, ProviderAsOf> {
  constructor(private readonly replayer: LedgerReplayer) {}

  async execute({ uuid, asOf }: GetProviderAsOf): Promise<ProviderAsOf> {
    const found = await this.replayer.providerWithRoot(uuid, asOf);
    if (!found) throw missingProvider(uuid, asOf);
    return found;
  }
}

export class GetProviderAllocationsAsOf {
  constructor(readonly uuid: string, readonly asOf: AsOf) {}
}

export interface ProviderAllocationsAsOf {
  readonly provider: ActiveProvider;
  /** Each holding consumer's generation at the same point. */
  readonly consumerGenerations: ReadonlyMap<string, number | null>;
}

@QueryHandler(GetProviderAllocationsAsOf)
export class GetProviderAllocationsAsOfHandler implements IQueryHandler<GetProviderAllocationsAsOf, ProviderAllocationsAsOf> {
  constructor(private readonly replayer: LedgerReplayer) {}

  async execute({ uuid, asOf }: GetProviderAllocationsAsOf): Promise<ProviderAllocationsAsOf> {
    const provider = (await this.replayer.providers([uuid], asOf)).get(uuid)!;
    if (provider.status !== 'active') throw missingProvider(uuid, asOf);
    const consumers = await this.replayer.consumers(Object.keys(provider.allocations), asOf);
    const consumerGenerations = new Map([...consumers].map(([id, state]) => [id, state.status === 'active' ? state.generation : null]));
    return { provider, consumerGenerations };
  }
}

export class GetConsumerAllocationsAsOf {
  constructor(readonly consumerUuid: string, readonly asOf: AsOf) {}
}

export interface ConsumerAllocationsAsOf {
  readonly consumer: ConsumerState;
  /** The generation of each provider the consumer held on, at the same point. */
  readonly providerGenerations: ReadonlyMap<string, number | null>;
}

@QueryHandler(GetConsumerAllocationsAsOf)
export class GetConsumerAllocationsAsOfHandler implements IQueryHandler<GetConsumerAllocationsAsOf, ConsumerAllocationsAsOf> {
  constructor(private readonly replayer: LedgerReplayer) {}

  async execute({ consumerUuid, asOf }: GetConsumerAllocationsAsOf): Promise<ConsumerAllocationsAsOf> {
    const consumer = (await this.replayer.consumers([consumerUuid], asOf)).get(consumerUuid)!;
    const held = consumer.status === 'active' ? Object.keys(consumer.allocations) : [];
    const providers = await this.replayer.providers(held, asOf);
    const providerGenerations = new Map([...providers].map(([id, state]) => [id, state.status === 'active' ? state.generation : null]));
    return { consumer, providerGenerations };
  }
}

export class GetUsagesAsOf {
  constructor(readonly filter: UsageFilter, readonly asOf: AsOf) {}
}

/** GET /usages as it would have answered then, from every consumer stream that named the project. */
@QueryHandler(GetUsagesAsOf)
export class GetUsagesAsOfHandler implements IQueryHandler<GetUsagesAsOf, TypedUsageRow[]> {
  constructor(private readonly replayer: LedgerReplayer) {}

  async execute({ filter, asOf }: GetUsagesAsOf): Promise<TypedUsageRow[]> {
    return usageRows(await this.replayer.consumersNamingProject(filter.projectId, asOf), filter);
  }
}
