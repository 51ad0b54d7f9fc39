import { Module } from '@nestjs/common';

/** The inventories resource family: its controller and its command and query handlers. */
@Module({
  controllers: [],
  providers: [],
})
export class InventoriesModule {}
