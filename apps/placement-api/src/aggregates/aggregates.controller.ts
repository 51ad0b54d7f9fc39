import { Controller, Get, Param, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import type { ProviderState } from '#domain/index.js';
import { Caller, ChangeProviderTags, CheckProviderExists, asActive } from '#placement/index.js';
import { GetProviderAggregates, ProviderAggregates } from '#placement/aggregates/get-provider-aggregates.query.js';
import { ApiRoute } from '../platform/api-route.js';
import { setLastModified } from '../platform/cache-headers.js';
import { extractJson } from '../platform/json-body.js';
import { Version } from '../platform/microversion.js';
import { httpBadRequest } from '../platform/placement-error.js';
import { RawBody, Ver, Who } from '../platform/request-params.js';
import { presentAggregates } from './aggregates.presenter.js';
import { PUT_AGGREGATES_V1_1, PUT_AGGREGATES_V1_19 } from './aggregates.schemas.js';

/** Upstream stores aggregate uuids verbatim in a 36-character column. */
const STORED_UUID_LENGTH = 36;

/** The body of PUT .../aggregates for the version: the list, and the generation from 1.19. */
function parseBody(body: string | undefined, version: Version): { aggregates: string[]; generation: number | undefined } {
  const withGeneration = version.matches('1.19');
  const data = extractJson(body, withGeneration ? PUT_AGGREGATES_V1_19 : PUT_AGGREGATES_V1_1);
  const parsed = withGeneration
    ? { aggregates: data.aggregates as string[], generation: data.resource_provider_generation as number }
    : { aggregates: data as string[], generation: undefined };
  // Braced and urn: forms pass the uuid format but do not fit upstream's column (it answers 500).
  const tooLong = parsed.aggregates.find((uuid) => uuid.length > STORED_UUID_LENGTH);
  if (tooLong !== undefined) {
    throw httpBadRequest(`Invalid aggregate uuid '${tooLong}': at most ${STORED_UUID_LENGTH} characters are accepted.`);
  }
  return parsed;
}

/** The aggregates a provider belongs to (from 1.1). */
@Controller('resource_providers/:uuid/aggregates')
export class AggregatesController {
  constructor(private readonly commands: CommandBus, private readonly queries: QueryBus) {}

  @Get()
  @ApiRoute({ since: '1.1', produces: true })
  async show(@Ver() version: Version, @Param('uuid') uuid: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const found: ProviderAggregates = await this.queries.execute(new GetProviderAggregates(uuid));
    // Memberships carry no time of their own; upstream answers "now".
    setLastModified(reply, version, null);
    return presentAggregates(found.aggregates, found.generation, version);
  }

  @Put()
  @ApiRoute({ since: '1.1', consumes: true })
  async update(
    @Ver() version: Version, @Who() caller: Caller, @Param('uuid') uuid: string, @RawBody() body: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.queries.execute(new CheckProviderExists(uuid));
    const { aggregates, generation } = parseBody(body, version);
    const state: ProviderState = await this.commands.execute(new ChangeProviderTags(
      { type: 'SetProviderAggregates', uuid, generation, aggregates, incrementGeneration: version.matches('1.19') },
      caller,
    ));
    setLastModified(reply, version, null);
    return presentAggregates(aggregates, asActive(state).generation, version);
  }
}
