import { Controller, Get, Param, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { GetProviderUsages, ProviderUsages } from '#placement/usages/get-provider-usages.query.js';
import { GetTotalUsages } from '#placement/usages/get-total-usages.query.js';
import { TypedUsageRow, usagesByClass, usagesByConsumerType } from '#placement/usages/usage-grouping.js';
import { ApiRoute } from '../platform/api-route.js';
import { setLastModified } from '../platform/cache-headers.js';
import { Version } from '../platform/microversion.js';
import { QueryParams, Ver } from '../platform/request-params.js';
import { parseTotalUsagesParams } from './usage-params.js';

/** Usage asks "how much is used now", so Last-Modified is now, as upstream. */
@Controller()
export class UsagesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('resource_providers/:uuid/usages')
  @ApiRoute({ produces: true })
  async provider(@Ver() version: Version, @Param('uuid') uuid: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const found: ProviderUsages = await this.queries.execute(new GetProviderUsages(uuid));
    setLastModified(reply, version, null);
    return { resource_provider_generation: found.generation, usages: found.usages };
  }

  @Get('usages')
  @ApiRoute({ since: '1.9', produces: true })
  async total(@Ver() version: Version, @QueryParams() query: URLSearchParams, @Res({ passthrough: true }) reply: FastifyReply) {
    const { projectId, userId, scope } = parseTotalUsagesParams(query, version);
    const rows: TypedUsageRow[] = await this.queries.execute(new GetTotalUsages(projectId, userId, scope));
    setLastModified(reply, version, null);
    return { usages: version.matches('1.38') ? usagesByConsumerType(rows, scope.groupAll) : usagesByClass(rows) };
  }
}
