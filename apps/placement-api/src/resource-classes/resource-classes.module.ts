import { Module } from '@nestjs/common';
import {
  RESOURCE_CLASS_COMMAND_HANDLERS, RESOURCE_CLASS_QUERY_HANDLERS, ResourceClassUsage,
} from '#placement/resource-classes/index.js';
import { ResourceClassesController } from './resource-classes.controller.js';

/** The resource-classes resource family: its controller and its command and query handlers. */
@Module({
  controllers: [ResourceClassesController],
  providers: [ResourceClassUsage, ...RESOURCE_CLASS_COMMAND_HANDLERS, ...RESOURCE_CLASS_QUERY_HANDLERS],
})
export class ResourceClassesModule {}
