import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  allocationsWritten, EventOwners, GetProviderClaims, GetRequestEvents, GetStaleConsumers, LedgerEvent, ProviderClaimsAnswer, StaleConsumer,
} from '#placement/ledger/index.js';
import { ApiRoute } from '../platform/api-route.js';
import { httpNotFound } from '../platform/placement-error.js';
import { validateQueryParams } from '../platform/query-params/query-string.js';
import { notAllowed, type Access } from '../platform/policy/access.js';
import { Judged, QueryParams } from '../platform/request-params.js';
import { visibleEvents } from './judge-events.js';
import { presentProviderClaims, presentRequestAudit, presentStaleConsumers } from './audit.presenter.js';
import { parseStaleParams } from './ledger-params.js';
import { PROVIDER_CLAIMS_QUERY } from './ledger.schemas.js';

/**
 * The questions an operator asks after an incident: who holds what since when, what did request X
 * do, what is forgotten. Each consumer, claim and event is judged against its own project.
 */
@Controller('ledger/audit')
export class LedgerAuditController {
  constructor(private readonly queries: QueryBus, private readonly owners: EventOwners) {}

  @Get('provider-claims')
  @ApiRoute({ produces: true })
  async providerClaims(@QueryParams() query: URLSearchParams, @Judged() access: Access) {
    const { provider } = validateQueryParams(query, PROVIDER_CLAIMS_QUERY);
    const answer: ProviderClaimsAnswer = await this.queries.execute(new GetProviderClaims(provider));
    return presentProviderClaims(provider, { ...answer, claims: access.filter(answer.claims, (claim) => claim.owner) });
  }

  @Get('request/:request_id')
  @ApiRoute({ produces: true })
  async request(@Param('request_id') requestId: string, @Judged() access: Access) {
    const written: LedgerEvent[] = await this.queries.execute(new GetRequestEvents(requestId));
    // Reads write nothing, so a request that is not in the log may well have happened.
    if (written.length === 0 && access.seesAll) throw httpNotFound(`No events were written by request ${requestId}`);
    const events = await visibleEvents(access, this.owners, written);
    if (events.length === 0) throw notAllowed(access.rule);
    return presentRequestAudit(requestId, events, allocationsWritten(events));
  }

  @Get('stale-consumers')
  @ApiRoute({ produces: true })
  async staleConsumers(@QueryParams() query: URLSearchParams, @Judged() access: Access) {
    const { olderThan, interval, limit } = parseStaleParams(query);
    const consumers: StaleConsumer[] = await this.queries.execute(new GetStaleConsumers(interval, limit, access.narrowTo()));
    return presentStaleConsumers(olderThan, access.filter(consumers, (consumer) => consumer));
  }
}
