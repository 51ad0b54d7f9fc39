import { Module } from '@nestjs/common';

/** The aggregates resource family: its controller and its command and query handlers. */
@Module({
  controllers: [],
  providers: [],
})
export class AggregatesModule {}
