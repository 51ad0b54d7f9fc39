import { Controller, Delete, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import {
  Caller, CreateResourceProvider, DeleteResourceProvider, GetResourceProvider, ListResourceProviders, ProviderRow,
  UpdateResourceProvider,
} from '#placement/index.js';
import { ApiRoute } from '../platform/api-route.js';
import { newest, setLastModified } from '../platform/cache-headers.js';
import { extractJson } from '../platform/json-body.js';
import { Version } from '../platform/microversion.js';
import { RawQuery } from '../platform/query-params/raw-query.js';
import { parseWebobQuery } from '../platform/query-params/webob-query.js';
import { BaseUrl, RawBody, Ver, Who } from '../platform/request-params.js';
import { parseProviderFilters } from './provider-list-params.js';
import { presentProvider, providerUrl } from './resource-provider.presenter.js';
import { POST_PROVIDER_V1_0, POST_PROVIDER_V1_14, PUT_PROVIDER_V1_0, PUT_PROVIDER_V1_14 } from './resource-provider.schemas.js';

/** Normalised as upstream stores it: str(uuid.UUID(value)). */
const canonicalUuid = (value: string) => {
  const hex = value.replace(/^urn:uuid:/i, '').replace(/[{}-]/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

@Controller('resource_providers')
export class ResourceProvidersController {
  constructor(private readonly commands: CommandBus, private readonly queries: QueryBus) {}

  @Get()
  @ApiRoute({ produces: true })
  async list(@Ver() version: Version, @RawQuery() query: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const rows: ProviderRow[] = await this.queries.execute(new ListResourceProviders(parseProviderFilters(parseWebobQuery(query), version)));
    setLastModified(reply, version, newest(rows.map((r) => r.updated_at ?? r.created_at)));
    return { resource_providers: rows.map((row) => presentProvider(row, version)) };
  }

  @Post()
  @HttpCode(200)
  @ApiRoute({ consumes: true })
  async create(
    @Ver() version: Version, @Who() caller: Caller, @RawBody() body: string | undefined, @BaseUrl() base: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const data = extractJson(body, version.matches('1.14') ? POST_PROVIDER_V1_14 : POST_PROVIDER_V1_0);
    const uuid = data.uuid ? canonicalUuid(data.uuid) : randomUUID();
    // Upstream normalises the provider's own uuid but looks the parent up exactly as sent.
    await this.commands.execute(new CreateResourceProvider(uuid, data.name, data.parent_provider_uuid ?? null, caller));
    reply.header('location', `${base}${providerUrl(uuid)}`);
    if (!version.matches('1.20')) {
      reply.code(201);
      return undefined;
    }
    const row: ProviderRow = await this.queries.execute(new GetResourceProvider(uuid));
    setLastModified(reply, version, row.updated_at ?? row.created_at);
    return presentProvider(row, version);
  }

  @Get(':uuid')
  @ApiRoute({ produces: true })
  async show(@Ver() version: Version, @Param('uuid') uuid: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const row: ProviderRow = await this.queries.execute(new GetResourceProvider(uuid));
    setLastModified(reply, version, row.updated_at ?? row.created_at);
    return presentProvider(row, version);
  }

  @Put(':uuid')
  @ApiRoute({ consumes: true })
  async update(
    @Ver() version: Version, @Who() caller: Caller, @Param('uuid') uuid: string, @RawBody() body: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const before: ProviderRow = await this.queries.execute(new GetResourceProvider(uuid));
    const data = extractJson(body, version.matches('1.14') ? PUT_PROVIDER_V1_14 : PUT_PROVIDER_V1_0);
    await this.commands.execute(new UpdateResourceProvider(uuid, data.name, data.parent_provider_uuid, version.matches('1.37'), caller));
    const row: ProviderRow = await this.queries.execute(new GetResourceProvider(uuid));
    // Upstream answers the updated_at it loaded before saving: the previous change's time.
    setLastModified(reply, version, before.updated_at ?? before.created_at);
    return presentProvider(row, version);
  }

  @Delete(':uuid')
  @HttpCode(204)
  async remove(@Who() caller: Caller, @Param('uuid') uuid: string) {
    await this.commands.execute(new DeleteResourceProvider(uuid, caller));
  }
}
