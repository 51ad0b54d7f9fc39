import { Injectable } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ActiveProvider, ErrorCode, notFound, ProviderState } from '#domain/index.js';
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

/** A read of one provider or consumer, named by its uuid, as it was at a past point of the log. */
abstract class ReadAsOf {
  constructor(readonly uuid: string, readonly asOf: AsOf) {}
}

/** What every handler here reads from: the streams replayed up to the point asked. */
@Injectable()
abstract class AsOfHandler {
  constructor(protected readonly replayer: LedgerReplayer) {}
}

/** Each stream's generation at the point asked; null where it was not active then. */
const generationsOf = (states: ReadonlyMap<string, ProviderState | ConsumerState>) =>
  new Map([...states].map(([id, state]) => [id, state.status === 'active' ? state.generation : null]));

export class GetProviderAsOf extends ReadAsOf {}

/** A provider as it was; 404 before it was created and after it was deleted. */
@QueryHandler(GetProviderAsOf)
export class GetProviderAsOfHandler extends AsOfHandler implements IQueryHandler<GetProviderAsOf, ProviderAsOf> {
  async execute({ uuid, asOf }: GetProviderAsOf): Promise<ProviderAsOf> {
    const found = await this.replayer.providerWithRoot(uuid, asOf);
    if (!found) throw missingProvider(uuid, asOf);
    return found;
  }
}

export class GetProviderAllocationsAsOf extends ReadAsOf {}

export interface ProviderAllocationsAsOf {
  readonly provider: ActiveProvider;
  /** Each holding consumer at the same point: its generation and its owner then. */
  readonly consumers: ReadonlyMap<string, ConsumerState>;
}

@QueryHandler(GetProviderAllocationsAsOf)
export class GetProviderAllocationsAsOfHandler extends AsOfHandler implements IQueryHandler<GetProviderAllocationsAsOf, ProviderAllocationsAsOf> {
  async execute({ uuid, asOf }: GetProviderAllocationsAsOf): Promise<ProviderAllocationsAsOf> {
    const provider = (await this.replayer.providers([uuid], asOf)).get(uuid)!;
    if (provider.status !== 'active') throw missingProvider(uuid, asOf);
    return { provider, consumers: await this.replayer.consumers(Object.keys(provider.allocations), asOf) };
  }
}

export class GetConsumerAllocationsAsOf extends ReadAsOf {}

export interface ConsumerAllocationsAsOf {
  readonly consumer: ConsumerState;
  /** The generation of each provider the consumer held on, at the same point. */
  readonly providerGenerations: ReadonlyMap<string, number | null>;
}

@QueryHandler(GetConsumerAllocationsAsOf)
export class GetConsumerAllocationsAsOfHandler extends AsOfHandler implements IQueryHandler<GetConsumerAllocationsAsOf, ConsumerAllocationsAsOf> {
  async execute({ uuid: consumerUuid, asOf }: GetConsumerAllocationsAsOf): Promise<ConsumerAllocationsAsOf> {
    const consumer = (await this.replayer.consumers([consumerUuid], asOf)).get(consumerUuid)!;
    const held = consumer.status === 'active' ? Object.keys(consumer.allocations) : [];
    const providers = await this.replayer.providers(held, asOf);
    return { consumer, providerGenerations: generationsOf(providers) };
  }
}

export class GetUsagesAsOf {
  constructor(readonly filter: UsageFilter, readonly asOf: AsOf) {}
}

/** GET /usages as it would have answered then, from every consumer stream that named the project. */
@QueryHandler(GetUsagesAsOf)
export class GetUsagesAsOfHandler extends AsOfHandler implements IQueryHandler<GetUsagesAsOf, TypedUsageRow[]> {
  async execute({ filter, asOf }: GetUsagesAsOf): Promise<TypedUsageRow[]> {
    return usageRows(await this.replayer.consumersNamingProject(filter.projectId, asOf), filter);
  }
}
