import { Controller, Delete, Get, HttpCode, Param, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { Caller, ChangeProviderTags } from '#placement/index.js';
import {
  DeleteCustomTrait, EnsureCustomTrait, GetProviderTraits, GetTrait, ListTraits, ProviderTraits, TraitRow,
} from '#placement/traits/index.js';
import { ApiRoute } from '../platform/api-route.js';
import { setLastModified } from '../platform/cache-headers.js';
import { extractJson, validator } from '../platform/json-body.js';
import { Version } from '../platform/microversion.js';
import { httpBadRequest } from '../platform/placement-error.js';
import { BaseUrl, QueryParams, RawBody, Ver, Who } from '../platform/request-params.js';
import { parseTraitFilters } from './trait-list-params.js';
import { presentTraits, traitUrl } from './trait.presenter.js';
import { CUSTOM_TRAIT, SET_PROVIDER_TRAITS } from './trait.schemas.js';

const INVALID_TRAIT = 'The trait is invalid. A valid trait must be no longer than 255 characters, start with the prefix "CUSTOM_" '
  + 'and use following characters: "A"-"Z", "0"-"9" and "_"';

/** /traits and a provider's traits (/resource_providers/{uuid}/traits), both from 1.6. */
@Controller()
export class TraitsController {
  constructor(private readonly commands: CommandBus, private readonly queries: QueryBus) {}

  @Get('traits')
  @ApiRoute({ since: '1.6', produces: true })
  async list(@Ver() version: Version, @QueryParams() query: URLSearchParams, @Res({ passthrough: true }) reply: FastifyReply) {
    const { body, lastModified } = presentTraits(await this.queries.execute<ListTraits, TraitRow[]>(new ListTraits(parseTraitFilters(query))));
    setLastModified(reply, version, lastModified);
    return body;
  }

  @Get('traits/:name')
  @HttpCode(204)
  @ApiRoute({ since: '1.6' })
  async show(@Ver() version: Version, @Param('name') name: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const trait: TraitRow = await this.queries.execute(new GetTrait(name));
    setLastModified(reply, version, trait.created_at);
  }

  @Put('traits/:name')
  @ApiRoute({ since: '1.6' })
  async put(
    @Ver() version: Version, @Who() caller: Caller, @Param('name') name: string, @BaseUrl() base: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    if (!validator(CUSTOM_TRAIT)(name)) throw httpBadRequest(INVALID_TRAIT);
    const created: boolean = await this.commands.execute(new EnsureCustomTrait(name, caller));
    reply.code(created ? 201 : 204).header('location', `${base}${traitUrl(name)}`);
    if (version.matches('1.15')) {
      const trait: TraitRow = await this.queries.execute(new GetTrait(name));
      setLastModified(reply, version, trait.created_at);
    }
  }

  @Delete('traits/:name')
  @HttpCode(204)
  @ApiRoute({ since: '1.6' })
  async remove(@Who() caller: Caller, @Param('name') name: string) {
    await this.commands.execute(new DeleteCustomTrait(name, caller));
  }

  @Get('resource_providers/:uuid/traits')
  @ApiRoute({ since: '1.6', produces: true })
  async listForProvider(@Ver() version: Version, @Param('uuid') uuid: string, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.providerTraits(uuid, version, reply);
  }

  @Put('resource_providers/:uuid/traits')
  @ApiRoute({ since: '1.6', consumes: true })
  async setForProvider(
    @Ver() version: Version, @Who() caller: Caller, @Param('uuid') uuid: string, @RawBody() raw: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const data = extractJson<{ traits: string[]; resource_provider_generation: number }>(raw, SET_PROVIDER_TRAITS);
    await this.commands.execute(new ChangeProviderTags(
      { type: 'SetProviderTraits', uuid, generation: data.resource_provider_generation, traits: data.traits }, caller));
    return this.providerTraits(uuid, version, reply);
  }

  @Delete('resource_providers/:uuid/traits')
  @HttpCode(204)
  @ApiRoute({ since: '1.6' })
  async removeForProvider(@Who() caller: Caller, @Param('uuid') uuid: string) {
    await this.commands.execute(new ChangeProviderTags({ type: 'DeleteProviderTraits', uuid }, caller));
  }

  private async providerTraits(uuid: string, version: Version, reply: FastifyReply) {
    const found: ProviderTraits = await this.queries.execute(new GetProviderTraits(uuid));
    const { body, lastModified } = presentTraits(found.traits);
    setLastModified(reply, version, lastModified);
    return { ...body, resource_provider_generation: found.generation };
  }
}
