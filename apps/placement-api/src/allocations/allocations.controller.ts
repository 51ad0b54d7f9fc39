import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import type { Caller } from '#placement/index.js';
import {
  ConsumerAllocationRow, DeleteAllocations, GetConsumerAllocations, GetProviderAllocations, ProviderAllocations, ReshapeProviders,
  WriteAllocations,
} from '#placement/allocations/index.js';
import { ApiRoute } from '../platform/api-route.js';
import { newest, setLastModified } from '../platform/cache-headers.js';
import { extractJson, isUuidLike } from '../platform/json-body.js';
import { Version } from '../platform/microversion.js';
import { httpBadRequest } from '../platform/placement-error.js';
import type { Access } from '../platform/policy/access.js';
import { Judged, RawBody, Ver, Who } from '../platform/request-params.js';
import {
  batchClaimsFrom, canonicalUuid, consumerClaimFrom, IncompleteOwners, postSchemaFor, putSchemaFor, reshapeFrom,
} from './allocation-body.js';
import { INCOMPLETE_OWNERS } from './allocations.module-tokens.js';
import { presentConsumerAllocations, presentProviderAllocations } from './allocation.presenter.js';
import { reshaperSchemaFor } from './reshaper.schemas.js';

/** Allocations are only ever inserted upstream, so their age is when the consumer was last written. */
const lastWritten = (rows: readonly { created_at: Date; updated_at: Date | null }[]) => newest(rows.map((r) => r.updated_at ?? r.created_at));

@Controller()
export class AllocationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(INCOMPLETE_OWNERS) private readonly owners: IncompleteOwners,
  ) {}

  @Get('allocations/:consumer_uuid')
  @ApiRoute({ produces: true })
  async show(@Ver() version: Version, @Param('consumer_uuid') consumer: string, @Judged() access: Access, @Res({ passthrough: true }) reply: FastifyReply) {
    const rows: ConsumerAllocationRow[] = await this.queries.execute(new GetConsumerAllocations(consumer));
    // Every row names the consumer's project and user; a consumer holding nothing shows nothing of anyone's.
    access.require(rows.length > 0 ? { projectId: rows[0].project_id, userId: rows[0].user_id } : null);
    setLastModified(reply, version, lastWritten(rows));
    return presentConsumerAllocations(rows, version);
  }

  @Put('allocations/:consumer_uuid')
  @HttpCode(204)
  @ApiRoute({ consumes: true })
  async replace(
    @Ver() version: Version, @Who() caller: Caller, @Param('consumer_uuid') consumer: string, @Judged() access: Access, @RawBody() body: string | undefined,
  ) {
    if (!isUuidLike(consumer)) throw httpBadRequest(`Malformed consumer_uuid: ${consumer}`);
    const data = extractJson(body, putSchemaFor(version));
    const claim = consumerClaimFrom(canonicalUuid(consumer), data, version, this.owners);
    await this.commands.execute(new WriteAllocations('consumer', [claim], caller, access));
  }

  @Delete('allocations/:consumer_uuid')
  @HttpCode(204)
  async remove(@Who() caller: Caller, @Param('consumer_uuid') consumer: string, @Judged() access: Access) {
    await this.commands.execute(new DeleteAllocations(consumer, caller, access));
  }

  @Post('allocations')
  @HttpCode(204)
  @ApiRoute({ since: '1.13', consumes: true })
  async batch(@Ver() version: Version, @Who() caller: Caller, @Judged() access: Access, @RawBody() body: string | undefined) {
    const data = extractJson(body, postSchemaFor(version));
    await this.commands.execute(new WriteAllocations('batch', batchClaimsFrom(data, version, this.owners), caller, access));
  }

  @Post('reshaper')
  @HttpCode(204)
  @ApiRoute({ since: '1.30', consumes: true })
  async reshape(@Ver() version: Version, @Who() caller: Caller, @Judged() access: Access, @RawBody() body: string | undefined) {
    const { inventories, claims } = reshapeFrom(extractJson(body, reshaperSchemaFor(version)), version, this.owners);
    await this.commands.execute(new ReshapeProviders(inventories, claims, caller, access));
  }

  @Get('resource_providers/:uuid/allocations')
  @ApiRoute({ produces: true })
  async forProvider(
    @Ver() version: Version, @Param('uuid') uuid: string, @Judged() access: Access, @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const found: ProviderAllocations = await this.queries.execute(new GetProviderAllocations(uuid));
    // Each consumer against its own project (upstream: against the caller), so that a rule opened
    // to a project shows it its own consumers on the provider; the provider's generation is no project's.
    const rows = access.filter(found.rows, (row) => ({ projectId: row.project_id, userId: row.user_id }));
    setLastModified(reply, version, lastWritten(rows));
    return presentProviderAllocations({ ...found, rows }, version);
  }
}
