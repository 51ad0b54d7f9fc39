import { Module } from '@nestjs/common';
import { ResourceProvidersController } from './resource-providers.controller.js';

/** The resource providers family: its controller; handlers live in libs/placement/src/providers. */
@Module({
  controllers: [ResourceProvidersController],
})
export class ResourceProvidersModule {}
