export * from './allocation.commands.js';
export * from './claim-command.js';
export * from './claim-writer.js';
export * from './allocation-command.handlers.js';
export * from './patch-allocations.handler.js';
export * from './queries/get-consumer-allocations.query.js';
export * from './queries/get-provider-allocations.query.js';
import { DeleteAllocationsHandler, ReshapeProvidersHandler, WriteAllocationsHandler } from './allocation-command.handlers.js';
import { ClaimWriter } from './claim-writer.js';
import { PatchAllocationsHandler } from './patch-allocations.handler.js';
import { GetConsumerAllocationsHandler } from './queries/get-consumer-allocations.query.js';
import { GetProviderAllocationsHandler } from './queries/get-provider-allocations.query.js';

/** Everything the allocations family registers with Nest: its command and query handlers. */
export const ALLOCATION_PROVIDERS = [
  ClaimWriter, WriteAllocationsHandler, DeleteAllocationsHandler, ReshapeProvidersHandler, PatchAllocationsHandler, GetConsumerAllocationsHandler, GetProviderAllocationsHandler,
];
