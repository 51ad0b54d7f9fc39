import { Controller, Delete, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ActiveProvider, Inventories, inventoryWithDefaults, notFound } from '#domain/index.js';
import {
  Caller, ChangeInventories, CheckProviderExists, InventoryChange, asActive,
} from '#placement/index.js';
import { GetProviderInventories, ProviderInventories } from '#placement/inventories/inventory.queries.js';
import { ApiRoute } from '../platform/api-route.js';
import { newest } from '../platform/cache-headers.js';
import { extractJson } from '../platform/json-body.js';
import { Version } from '../platform/microversion.js';
import { BaseUrl, RawBody, Ver, Who } from '../platform/request-params.js';
import { inventoryUrl, presentInventories, presentInventory, setInventoryCaching } from './inventory.presenter.js';
import { BASE_INVENTORY, POST_INVENTORY, PUT_INVENTORIES } from './inventory.schemas.js';

type Reply = FastifyReply;

/** upstream's handlers/inventory.py: a provider's inventories, all at once or one class at a time. */
@Controller('resource_providers/:uuid/inventories')
export class InventoriesController {
  constructor(private readonly commands: CommandBus, private readonly queries: QueryBus) {}

  @Get()
  @ApiRoute({ produces: true })
  async list(@Ver() version: Version, @Param('uuid') uuid: string, @Res({ passthrough: true }) reply: Reply) {
    const { generation, inventories }: ProviderInventories = await this.queries.execute(new GetProviderInventories(uuid));
    setInventoryCaching(reply, version, newest(inventories.map((i) => i.updated_at ?? i.created_at)), inventories.length === 0);
    return presentInventories(generation, Object.fromEntries(inventories.map((i) => [i.resource_class, i])));
  }

  @Put()
  @ApiRoute({ consumes: true })
  async replaceAll(
    @Ver() version: Version, @Who() caller: Caller, @Param('uuid') uuid: string, @RawBody() body: string | undefined,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    await this.queries.execute(new CheckProviderExists(uuid));
    const data = extractJson(body, PUT_INVENTORIES);
    const inventories: Inventories = Object.fromEntries(
      Object.entries(data.inventories as Record<string, any>).map(([rc, record]) => [rc, inventoryWithDefaults(record)]));
    const provider = await this.change({
      type: 'SetInventories', uuid, generation: data.resource_provider_generation, inventories, reservedCanBeTotal: version.matches('1.26'),
    }, caller);
    setInventoryCaching(reply, version, null, Object.keys(provider.inventories).length === 0);
    return presentInventories(provider.generation, provider.inventories);
  }

  @Post()
  @HttpCode(201)
  @ApiRoute({ consumes: true })
  async create(
    @Ver() version: Version, @Who() caller: Caller, @Param('uuid') uuid: string, @RawBody() body: string | undefined,
    @BaseUrl() base: string, @Res({ passthrough: true }) reply: Reply,
  ) {
    await this.queries.execute(new CheckProviderExists(uuid));
    const { resource_class: rc, ...fields } = extractJson(body, POST_INVENTORY);
    const provider = await this.change({
      type: 'AddInventory', uuid, resourceClass: rc, inventory: inventoryWithDefaults(fields), reservedCanBeTotal: version.matches('1.26'),
    }, caller);
    reply.header('location', `${base}${inventoryUrl(uuid, rc)}`);
    setInventoryCaching(reply, version, null, false);
    return presentInventory(provider.inventories[rc], provider.generation);
  }

  @Delete()
  @HttpCode(204)
  @ApiRoute({ since: '1.5', belowStatus: 405 })
  async removeAll(@Who() caller: Caller, @Param('uuid') uuid: string) {
    await this.change({ type: 'DeleteAllInventories', uuid }, caller);
  }

  @Get(':resourceClass')
  @ApiRoute({ produces: true })
  async show(
    @Ver() version: Version, @Param('uuid') uuid: string, @Param('resourceClass') rc: string, @Res({ passthrough: true }) reply: Reply,
  ) {
    const { generation, inventories }: ProviderInventories = await this.queries.execute(new GetProviderInventories(uuid));
    const inventory = inventories.find((i) => i.resource_class === rc);
    if (!inventory) throw notFound(`No inventory of class ${rc} for ${uuid}`);
    setInventoryCaching(reply, version, inventory.updated_at ?? inventory.created_at, false);
    return presentInventory(inventory, generation);
  }

  @Put(':resourceClass')
  @ApiRoute({ consumes: true })
  async update(
    @Ver() version: Version, @Who() caller: Caller, @Param('uuid') uuid: string, @Param('resourceClass') rc: string,
    @RawBody() body: string | undefined, @Res({ passthrough: true }) reply: Reply,
  ) {
    await this.queries.execute(new CheckProviderExists(uuid));
    const { resource_provider_generation: generation, ...fields } = extractJson(body, BASE_INVENTORY);
    const provider = await this.change({
      type: 'UpdateInventory', uuid, generation, resourceClass: rc, inventory: inventoryWithDefaults(fields),
      reservedCanBeTotal: version.matches('1.26'),
    }, caller);
    setInventoryCaching(reply, version, null, false);
    return presentInventory(provider.inventories[rc], provider.generation);
  }

  @Delete(':resourceClass')
  @HttpCode(204)
  async remove(@Who() caller: Caller, @Param('uuid') uuid: string, @Param('resourceClass') rc: string) {
    await this.change({ type: 'DeleteInventory', uuid, resourceClass: rc }, caller);
  }

  private async change(change: InventoryChange, caller: Caller): Promise<ActiveProvider> {
    return asActive(await this.commands.execute(new ChangeInventories(change, caller)));
  }
}
