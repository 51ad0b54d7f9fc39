import { Module } from '@nestjs/common';
import { TRAIT_COMMAND_HANDLERS, TRAIT_QUERY_HANDLERS } from '#placement/traits/index.js';
import { TraitsController } from './traits.controller.js';

/** The traits resource family: its controller and its command and query handlers. */
@Module({
  controllers: [TraitsController],
  providers: [...TRAIT_COMMAND_HANDLERS, ...TRAIT_QUERY_HANDLERS],
})
export class TraitsModule {}
