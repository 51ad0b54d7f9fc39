import { Module } from '@nestjs/common';
import { INVENTORY_QUERY_HANDLERS } from '#placement/inventories/inventory.queries.js';
import { InventoriesController } from './inventories.controller.js';

/** The inventories resource family: its controller and its query handlers (commands: libs/placement/src/providers). */
@Module({
  controllers: [InventoriesController],
  providers: [...INVENTORY_QUERY_HANDLERS],
})
export class InventoriesModule {}
