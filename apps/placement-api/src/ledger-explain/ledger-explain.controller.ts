import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ErrorCode } from '#domain/index.js';
import { ExplainAllocationCandidates } from '#placement/candidates/explain/explain-candidates.query.js';
import type { CandidatesExplanation } from '#placement/candidates/explain/explain-candidates.js';
import { AsOf, describeAsOf } from '#placement/ledger/index.js';
import { parseCandidateQuery } from '../allocation-candidates/candidate-query.js';
import { parseAsOfParam } from '../ledger/ledger-params.js';
import { ApiRoute } from '../platform/api-route.js';
import { Version } from '../platform/microversion.js';
import { httpBadRequest } from '../platform/placement-error.js';
import { QueryParams, Ver } from '../platform/request-params.js';

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** One value of one of our own parameters, or null; removed so upstream's parser sees its own query. */
function takeOwn(query: URLSearchParams, name: string): string | null {
  const values = query.getAll(name);
  if (values.length > 1) throw httpBadRequest(`Query parameter '${name}' may be specified only once.`, ErrorCode.ILLEGAL_DUPLICATE_QUERYPARAM);
  query.delete(name);
  return values[0] ?? null;
}

/**
 * "Why did this boot get no host?": GET /allocation_candidates' own query, at the request's
 * microversion, answered with what each step left instead of the candidates.
 */
@Controller('ledger/explain')
export class LedgerExplainController {
  constructor(private readonly queries: QueryBus) {}

  @Get('allocation_candidates')
  @ApiRoute({ since: '1.10', produces: true })
  async explain(@Ver() version: Version, @QueryParams() params: URLSearchParams) {
    const query = new URLSearchParams(params);
    const provider = takeOwn(query, 'provider');
    if (provider !== null && !UUID.test(provider)) throw httpBadRequest(`Invalid provider: '${provider}' is not a UUID`, ErrorCode.QUERYPARAM_BAD_VALUE);
    const asOfText = takeOwn(query, 'as_of');
    const asOf: AsOf | null = asOfText === null ? null : parseAsOfParam(asOfText);
    const request = parseCandidateQuery(query, version);
    const normalized = provider === null ? null : provider.toLowerCase().replace(/^(.{8})-?(.{4})-?(.{4})-?(.{4})-?(.{12})$/, '$1-$2-$3-$4-$5');
    const explanation: CandidatesExplanation = await this.queries.execute(new ExplainAllocationCandidates(request, normalized, asOf));
    return { as_of: asOf ? describeAsOf(asOf) : null, ...explanation };
  }
}
