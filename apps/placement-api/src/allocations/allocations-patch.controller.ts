import { Controller, HttpCode, Param, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { AllocationsPatch } from '#domain/allocation-patch/index.js';
import type { Caller } from '#placement/index.js';
import { PatchAllocations } from '#placement/allocations/index.js';
import { ApiRoute } from '../platform/api-route.js';
import { extractJson, isUuidLike } from '../platform/json-body.js';
import { httpBadRequest } from '../platform/placement-error.js';
import type { Access } from '../platform/policy/access.js';
import { Judged, RawBody, Who } from '../platform/request-params.js';
import { canonicalUuid } from './allocation-body.js';
import { ALLOCATIONS_PATCH, MERGE_PATCH } from './allocations-patch.schema.js';

/**
 * Partial allocation updates (the Placement team's 2018 agreement; Neutron hot-attaching a
 * port's bandwidth): our addition, outside upstream's URLs, answering as PUT /allocations/{consumer}.
 */
@Controller('ledger')
export class AllocationsPatchController {
  constructor(private readonly commands: CommandBus) {}

  @Patch('allocations/:consumer_uuid')
  @HttpCode(204)
  @ApiRoute({ consumes: MERGE_PATCH })
  async patch(@Who() caller: Caller, @Param('consumer_uuid') consumer: string, @Judged() access: Access, @RawBody() body: string | undefined) {
    if (!isUuidLike(consumer)) throw httpBadRequest(`Malformed consumer_uuid: ${consumer}`);
    const patch = extractJson<AllocationsPatch>(body, ALLOCATIONS_PATCH);
    await this.commands.execute(new PatchAllocations(canonicalUuid(consumer), patch, caller, access));
  }
}
