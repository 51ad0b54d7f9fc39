import { Module } from '@nestjs/common';

/** The traits resource family: its controller and its command and query handlers. */
@Module({
  controllers: [],
  providers: [],
})
export class TraitsModule {}
