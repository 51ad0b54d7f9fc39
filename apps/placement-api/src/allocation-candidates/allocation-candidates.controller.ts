import { Controller, Get, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { GetAllocationCandidates } from '#placement/candidates/get-allocation-candidates.query.js';
import type { CandidateResult } from '#placement/candidates/search/search.js';
import { ApiRoute } from '../platform/api-route.js';
import { setLastModified } from '../platform/cache-headers.js';
import { Version } from '../platform/microversion.js';
import { QueryParams, Ver } from '../platform/request-params.js';
import { presentCandidates } from './allocation-candidates.presenter.js';
import { parseCandidateQuery } from './candidate-query.js';
import { ReplyBuffers } from './reply-buffers.js';

@Controller('allocation_candidates')
export class AllocationCandidatesController {
  constructor(private readonly queries: QueryBus) {}

  private readonly buffers = new ReplyBuffers();

  @Get()
  @ApiRoute({ since: '1.10', produces: true })
  async list(@Ver() version: Version, @QueryParams() query: URLSearchParams, @Res({ passthrough: true }) reply: FastifyReply) {
    const request = parseCandidateQuery(query, version);
    const result: CandidateResult = await this.queries.execute(new GetAllocationCandidates(request));
    reply.header('content-type', 'application/json');
    // The answer is computed now, so it was last modified now, as upstream says.
    setLastModified(reply, version, new Date());
    const body = presentCandidates(result, request, version, this.buffers);
    // Only once Node has handed every byte to the kernel may the memory hold another answer.
    reply.raw.once('finish', () => this.buffers.giveBack(body));
    return body;
  }
}
