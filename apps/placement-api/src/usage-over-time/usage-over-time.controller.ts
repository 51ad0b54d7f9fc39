import { Controller, Get, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { UsageOverTime } from '#placement/usage-over-time/get-usage-over-time.query.js';
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
  async series(@QueryParams() query: URLSearchParams, @Res({ passthrough: true }) reply: FastifyReply) {
    const asked = parseUsageOverTime(query, Date.now());
    const usage: UsageOverTime = await this.queries.execute(asked);
    reply.header('cache-control', 'no-cache');
    return presentUsageSeries(asked, usage);
  }

  @Get('totals')
  @ApiRoute({ produces: true })
  async totals(@QueryParams() query: URLSearchParams, @Res({ passthrough: true }) reply: FastifyReply) {
    const asked = parseUsageOverTime(query, Date.now());
    const usage: UsageOverTime = await this.queries.execute(asked);
    reply.header('cache-control', 'no-cache');
    return presentUsageTotals(asked, usage);
  }
}
