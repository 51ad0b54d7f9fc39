import { Controller, Get, Param, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ErrorCode, providerStream } from '#domain/index.js';
import { consumerStream } from '#domain/consumer/index.js';
import { EventOwners, GetStreamHistory, StreamHistoryPage, presentLedgerEvent } from '#placement/ledger/index.js';
import { ApiRoute } from '../platform/api-route.js';
import { PlacementError } from '../platform/placement-error.js';
import type { Access } from '../platform/policy/access.js';
import { Judged, QueryParams } from '../platform/request-params.js';
import { visibleEvents, visibleHoldings } from './judge-events.js';
import { parseHistoryParams } from './ledger-params.js';

/** The events of one provider or one consumer, oldest or newest first, a page at a time. */
@Controller('ledger')
export class LedgerHistoryController {
  constructor(private readonly queries: QueryBus, private readonly owners: EventOwners) {}

  /**
   * The provider's own facts whole; of what consumers hold on it, each consumer judged against
   * its owner when the change was written (visibleHoldings).
   */
  @Get('resource_providers/:uuid/history')
  @ApiRoute({ produces: true })
  async provider(
    @Param('uuid') uuid: string, @QueryParams() query: URLSearchParams, @Judged() access: Access, @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const page = await this.page(providerStream(uuid), query);
    if (!page) throw new PlacementError(404, `No resource provider with uuid ${uuid} found`, ErrorCode.RESOURCE_PROVIDER_NOT_FOUND);
    return present(providerStream(uuid), await visibleHoldings(access, this.owners, page), reply);
  }

  /**
   * Judged against the consumer's owner now (or last), then event by event against its owner
   * then, so a consumer that changed project shows each project only its own part.
   */
  @Get('consumers/:uuid/history')
  @ApiRoute({ produces: true })
  async consumer(
    @Param('uuid') uuid: string, @QueryParams() query: URLSearchParams, @Judged() access: Access, @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const stream = consumerStream(uuid);
    if (!access.seesAll) access.require(await this.owners.latest(stream));
    const page = await this.page(stream, query);
    if (!page) throw new PlacementError(404, `No consumer with uuid ${uuid} found`);
    return present(stream, { ...page, events: await visibleEvents(access, this.owners, page.events) }, reply);
  }

  private page(stream: string, query: URLSearchParams): Promise<StreamHistoryPage | null> {
    const { order, limit, afterRevision } = parseHistoryParams(query);
    return this.queries.execute(new GetStreamHistory(stream, order, limit, afterRevision));
  }
}

/** A history changes with every write: nothing may cache it. */
function present(stream: string, page: StreamHistoryPage, reply: FastifyReply) {
  reply.header('cache-control', 'no-cache');
  return { stream, events: page.events.map(presentLedgerEvent), next_marker: page.nextMarker };
}
