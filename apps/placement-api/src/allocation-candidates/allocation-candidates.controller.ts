import { Controller, Get, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { GetAllocationCandidates, PacedRun } from '#placement/candidates/get-allocation-candidates.query.js';
import { ApiRoute } from '../platform/api-route.js';
import { setLastModified } from '../platform/cache-headers.js';
import { Version } from '../platform/microversion.js';
import { QueryString, Ver } from '../platform/request-params.js';
import { presentSteps } from './allocation-candidates.presenter.js';
import { candidateRequestOf } from './candidate-query.js';
import type { AnswerReuse } from '#placement/candidates/reuse/answer-reuse.js';

@Controller('allocation_candidates')
export class AllocationCandidatesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiRoute({ since: '1.10', produces: true })
  async list(@Ver() version: Version, @QueryString() query: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const request = candidateRequestOf(query, version);
    // Written while the index holds the state the candidates were found in, pausing as the search does.
    let reuse: AnswerReuse | undefined;
    const present = (result: Parameters<typeof presentSteps>[0], kept: AnswerReuse, run: PacedRun) => {
      reuse = kept;
      return run(presentSteps(result, request, version, kept));
    };
    const body: Buffer = await this.queries.execute(new GetAllocationCandidates(request, present));
    reply.header('content-type', 'application/json');
    // The answer is computed now, so it was last modified now, as upstream says.
    setLastModified(reply, version, new Date());
    // Only once Node has handed every byte to the kernel may the memory hold another answer.
    reply.raw.once('finish', () => reuse?.buffers.giveBack(body));
    return body;
  }
}
