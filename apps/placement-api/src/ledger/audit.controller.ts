import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  allocationsWritten, GetProviderClaims, GetRequestEvents, GetStaleConsumers, LedgerEvent, ProviderClaimsAnswer, StaleConsumer,
} from '#placement/ledger/index.js';
import { ApiRoute } from '../platform/api-route.js';
import { httpNotFound } from '../platform/placement-error.js';
import { validateQueryParams } from '../platform/query-params/query-string.js';
import { QueryParams } from '../platform/request-params.js';
import { presentProviderClaims, presentRequestAudit, presentStaleConsumers } from './audit.presenter.js';
import { parseStaleParams } from './ledger-params.js';
import { PROVIDER_CLAIMS_QUERY } from './ledger.schemas.js';

/** The questions an operator asks after an incident: who holds what since when, what did request X do, what is forgotten. */
@Controller('ledger/audit')
export class LedgerAuditController {
  constructor(private readonly queries: QueryBus) {}

  @Get('provider-claims')
  @ApiRoute({ produces: true })
  async providerClaims(@QueryParams() query: URLSearchParams) {
    const { provider } = validateQueryParams(query, PROVIDER_CLAIMS_QUERY);
    const answer: ProviderClaimsAnswer = await this.queries.execute(new GetProviderClaims(provider));
    return presentProviderClaims(provider, answer);
  }

  @Get('request/:request_id')
  @ApiRoute({ produces: true })
  async request(@Param('request_id') requestId: string) {
    const events: LedgerEvent[] = await this.queries.execute(new GetRequestEvents(requestId));
    // Reads write nothing, so a request that is not in the log may well have happened.
    if (events.length === 0) throw httpNotFound(`No events were written by request ${requestId}`);
    return presentRequestAudit(requestId, events, allocationsWritten(events));
  }

  @Get('stale-consumers')
  @ApiRoute({ produces: true })
  async staleConsumers(@QueryParams() query: URLSearchParams) {
    const { olderThan, interval, limit } = parseStaleParams(query);
    const consumers: StaleConsumer[] = await this.queries.execute(new GetStaleConsumers(interval, limit));
    return presentStaleConsumers(olderThan, consumers);
  }
}
