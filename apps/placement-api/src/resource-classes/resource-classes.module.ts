import { Module } from '@nestjs/common';

/** The resource-classes resource family: its controller and its command and query handlers. */
@Module({
  controllers: [],
  providers: [],
})
export class ResourceClassesModule {}
