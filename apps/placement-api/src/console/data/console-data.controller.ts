import { Controller, Get, Param } from '@nestjs/common';
import { ErrorCode } from '#domain/index.js';
import { CandidateIndexService } from '#placement/candidates/candidate-index.service.js';
import { indexedProviders } from '#placement/capacity-metrics/index.js';
import { ApiRoute } from '../../platform/api-route.js';
import { httpBadRequest, PlacementError } from '../../platform/placement-error.js';
import type { Access } from '../../platform/policy/access.js';
import { validateQueryParams } from '../../platform/query-params/query-string.js';
import { Judged, QueryParams } from '../../platform/request-params.js';
import { capacityView } from './capacity.view.js';
import { providerTreeView } from './provider-tree.view.js';
import { tallyOwner, visibleProjects } from './judged-by-project.js';

const NO_QUERY = { type: 'object', additionalProperties: false };
const CAPACITY_QUERY = { type: 'object', properties: { top: { type: 'string', pattern: '^[0-9]+$' } }, additionalProperties: false };
const DEFAULT_TOP = 5;
const MAX_TOP = 100;

/**
 * What the console draws that no other endpoint gives in one answer: a provider's whole tree with
 * usage and holders, and capacity per class and aggregate with the top projects. Both read the
 * candidate index, caught up with the log first, so they show every write acknowledged before.
 * The holders in a tree and the top projects are each judged against their own project
 * (route-policies.ts), so a rule opened to project readers shows each project's readers the
 * providers and the cloud's figures whole, and of the consumers and projects only their own.
 */
@Controller('ledger')
export class ConsoleDataController {
  constructor(private readonly candidates: CandidateIndexService) {}

  @Get('resource_providers/:uuid/tree')
  @ApiRoute({ produces: true })
  async tree(@Param('uuid') uuid: string, @QueryParams() query: URLSearchParams, @Judged() access: Access) {
    validateQueryParams(query, NO_QUERY);
    const { index, projects } = await this.candidates.current();
    const ownerOf = tallyOwner(projects);
    const view = providerTreeView(index, uuid.toLowerCase(), (consumers) => access.filter(consumers, ownerOf));
    if (!view) throw new PlacementError(404, `No resource provider with uuid ${uuid} found`, ErrorCode.RESOURCE_PROVIDER_NOT_FOUND);
    return view;
  }

  @Get('capacity')
  @ApiRoute({ produces: true })
  async capacity(@QueryParams() query: URLSearchParams, @Judged() access: Access) {
    const { top } = validateQueryParams(query, CAPACITY_QUERY);
    const count = top === undefined ? DEFAULT_TOP : Number(top);
    if (count < 1 || count > MAX_TOP) {
      throw httpBadRequest(`Invalid top: ${top}; it must be between 1 and ${MAX_TOP}`, ErrorCode.QUERYPARAM_BAD_VALUE);
    }
    const { index, projects } = await this.candidates.current();
    return capacityView({ providers: () => indexedProviders(index), ...visibleProjects(projects, access) }, count);
  }
}
