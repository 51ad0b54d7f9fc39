import { Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import type { Caller } from '#placement/index.js';
import {
  CreateCustomResourceClass, DeleteCustomResourceClass, EnsureCustomResourceClass, GetResourceClass, ListResourceClasses,
  RenameCustomResourceClass, ResourceClassRow,
} from '#placement/resource-classes/index.js';
import { ApiRoute } from '../platform/api-route.js';
import { setLastModified } from '../platform/cache-headers.js';
import { extractJson } from '../platform/json-body.js';
import { Version } from '../platform/microversion.js';
import { PlacementError } from '../platform/placement-error.js';
import { BaseUrl, RawBody, Ver, Who } from '../platform/request-params.js';
import { lastModified, presentResourceClass, resourceClassUrl } from './resource-class.presenter.js';
import { POST_RC_V1_2, PUT_RC_V1_2 } from './resource-class.schemas.js';

/** Only the 1.2-1.6 PUT takes a body, so only it insists on JSON (upstream's require_content). */
function requireJsonContent(contentType: string | undefined): void {
  const type = String(contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') {
    throw new PlacementError(415, `The media type ${type || 'None'} is not supported, use application/json`);
  }
}

@Controller('resource_classes')
export class ResourceClassesController {
  constructor(private readonly commands: CommandBus, private readonly queries: QueryBus) {}

  @Get()
  @ApiRoute({ since: '1.2', produces: true })
  async list(@Ver() version: Version, @Res({ passthrough: true }) reply: FastifyReply) {
    const rows: ResourceClassRow[] = await this.queries.execute(new ListResourceClasses());
    setLastModified(reply, version, lastModified(rows));
    return { resource_classes: rows.map((row) => presentResourceClass(row.name)) };
  }

  @Post()
  @ApiRoute({ since: '1.2', consumes: true })
  async create(
    @Who() caller: Caller, @RawBody() body: string | undefined, @BaseUrl() base: string, @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { name } = extractJson<{ name: string }>(body, POST_RC_V1_2);
    await this.commands.execute(new CreateCustomResourceClass(name, caller));
    reply.code(201).header('location', `${base}${resourceClassUrl(name)}`);
    return undefined;
  }

  @Get(':name')
  @ApiRoute({ since: '1.2', produces: true })
  async show(@Ver() version: Version, @Param('name') name: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const row: ResourceClassRow = await this.queries.execute(new GetResourceClass(name));
    setLastModified(reply, version, lastModified([row]));
    return presentResourceClass(row.name);
  }

  @Put(':name')
  @ApiRoute({ since: '1.2' })
  async update(
    @Ver() version: Version, @Who() caller: Caller, @Param('name') name: string, @RawBody() body: string | undefined,
    @Headers('content-type') contentType: string | undefined, @BaseUrl() base: string, @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    if (version.matches('1.7')) {
      // Upstream validates the name from the path by wrapping it in a JSON document.
      extractJson(`{"name": "${name}"}`, PUT_RC_V1_2);
      const created: boolean = await this.commands.execute(new EnsureCustomResourceClass(name, caller));
      reply.code(created ? 201 : 204).header('location', `${base}${resourceClassUrl(name)}`);
      return undefined;
    }
    requireJsonContent(contentType);
    const { name: to } = extractJson<{ name: string }>(body, PUT_RC_V1_2);
    await this.commands.execute(new RenameCustomResourceClass(name, to, caller));
    return presentResourceClass(to);
  }

  @Delete(':name')
  @HttpCode(204)
  @ApiRoute({ since: '1.2' })
  async remove(@Who() caller: Caller, @Param('name') name: string) {
    await this.commands.execute(new DeleteCustomResourceClass(name, caller));
  }
}
