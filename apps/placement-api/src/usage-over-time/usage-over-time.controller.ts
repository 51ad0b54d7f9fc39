import { Controller, Get, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { GetUsageOverTime, UsageOverTime } from '#placement/usage-over-time/get-usage-over-time.query.js';
import { ApiRoute } from '../platform/api-route.js';
import { QueryParams } from '../platform/request-params.js';
import { parseUsageOverTime } from './usage-over-time.params.js';
import { presentUsageSeries, presentUsageTotals } from './usage-over-time.presenter.js';

/**
 * A project's usage per resource class over a range, for dashboards and chargeback: peak and
 * time-weighted integral (unit-hours) per hour or day, or for the whole range.
 */
@Controller('ledger/usage')
export class UsageOverTimeController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiRoute({ produces: true })
  series(@QueryParams() query: URLSearchParams, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.answer(query, reply, presentUsageSeries);
  }

  @Get('totals')
  @ApiRoute({ produces: true })
  totals(@QueryParams() query: URLSearchParams, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.answer(query, reply, presentUsageTotals);
  }

  /** Both read the same usage; only its presentation differs. Never cached: "now" moves. */
  private async answer<Body>(query: URLSearchParams, reply: FastifyReply, present: (asked: GetUsageOverTime, usage: UsageOverTime) => Body): Promise<Body> {
    const asked = parseUsageOverTime(query, Date.now());
    const usage: UsageOverTime = await this.queries.execute(asked);
    reply.header('cache-control', 'no-cache');
    return present(asked, usage);
  }
}
