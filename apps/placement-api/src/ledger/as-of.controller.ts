import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ConsumerAllocationsAsOf, GetConsumerAllocationsAsOf, GetProviderAllocationsAsOf, GetProviderAsOf, GetUsagesAsOf,
  ProviderAllocationsAsOf, ProviderAsOf,
} from '#placement/ledger/index.js';
import { consumerTypeScope, TypedUsageRow, usagesByConsumerType } from '#placement/usages/usage-grouping.js';
import { ApiRoute } from '../platform/api-route.js';
import { validateQueryParams } from '../platform/query-params/query-string.js';
import type { Access } from '../platform/policy/access.js';
import { Judged, QueryParams } from '../platform/request-params.js';
import {
  presentAggregatesAsOf, presentConsumerAllocationsAsOf, presentInventoriesAsOf, presentProviderAllocationsAsOf,
  presentProviderAsOf, presentProviderUsagesAsOf, presentTraitsAsOf,
} from './as-of.presenter.js';
import { parseAsOfParam, parseAsOfQuery } from './ledger-params.js';
import { AS_OF_USAGES_QUERY } from './ledger.schemas.js';

/**
 * Time travel: upstream's reads of a provider, a consumer and a project's usage, answered for a
 * past point of the log (?as_of=<position token or RFC 3339 time>) by replaying the streams.
 */
@Controller('ledger/as-of')
export class LedgerAsOfController {
  constructor(private readonly queries: QueryBus) {}

  private provider(uuid: string, query: URLSearchParams): Promise<ProviderAsOf> {
    return this.queries.execute(new GetProviderAsOf(uuid, parseAsOfQuery(query)));
  }

  @Get('resource_providers/:uuid')
  @ApiRoute({ produces: true })
  async show(@Param('uuid') uuid: string, @QueryParams() query: URLSearchParams) {
    return presentProviderAsOf(await this.provider(uuid, query));
  }

  @Get('resource_providers/:uuid/inventories')
  @ApiRoute({ produces: true })
  async inventories(@Param('uuid') uuid: string, @QueryParams() query: URLSearchParams) {
    return presentInventoriesAsOf((await this.provider(uuid, query)).provider);
  }

  @Get('resource_providers/:uuid/traits')
  @ApiRoute({ produces: true })
  async traits(@Param('uuid') uuid: string, @QueryParams() query: URLSearchParams) {
    return presentTraitsAsOf((await this.provider(uuid, query)).provider);
  }

  @Get('resource_providers/:uuid/aggregates')
  @ApiRoute({ produces: true })
  async aggregates(@Param('uuid') uuid: string, @QueryParams() query: URLSearchParams) {
    return presentAggregatesAsOf((await this.provider(uuid, query)).provider);
  }

  @Get('resource_providers/:uuid/usages')
  @ApiRoute({ produces: true })
  async providerUsages(@Param('uuid') uuid: string, @QueryParams() query: URLSearchParams) {
    return presentProviderUsagesAsOf((await this.provider(uuid, query)).provider);
  }

  @Get('resource_providers/:uuid/allocations')
  @ApiRoute({ produces: true })
  async providerAllocations(@Param('uuid') uuid: string, @QueryParams() query: URLSearchParams, @Judged() access: Access) {
    const found: ProviderAllocationsAsOf = await this.queries.execute(new GetProviderAllocationsAsOf(uuid, parseAsOfQuery(query)));
    // Judged as GET /resource_providers/{uuid}/allocations, each consumer against its owner then.
    const shown = new Set(access.filter(Object.keys(found.provider.allocations), (consumer) => {
      const state = found.consumers.get(consumer);
      return state?.status === 'active' ? state : null;
    }));
    return presentProviderAllocationsAsOf(found, shown);
  }

  @Get('allocations/:consumer_uuid')
  @ApiRoute({ produces: true })
  async consumerAllocations(@Param('consumer_uuid') consumer: string, @QueryParams() query: URLSearchParams, @Judged() access: Access) {
    const found: ConsumerAllocationsAsOf = await this.queries.execute(new GetConsumerAllocationsAsOf(consumer, parseAsOfQuery(query)));
    // Judged as GET /allocations/{consumer}, against whom the consumer belonged to then.
    access.require(found.consumer.status === 'active' ? found.consumer : null);
    return presentConsumerAllocationsAsOf(found);
  }

  @Get('usages')
  @ApiRoute({ produces: true })
  async usages(@QueryParams() query: URLSearchParams) {
    const single = validateQueryParams(query, AS_OF_USAGES_QUERY);
    const scope = consumerTypeScope(single.consumer_type);
    const filter = { projectId: single.project_id, userId: single.user_id, scope };
    const rows: TypedUsageRow[] = await this.queries.execute(new GetUsagesAsOf(filter, parseAsOfParam(single.as_of)));
    return { usages: usagesByConsumerType(rows, scope.groupAll) };
  }
}
