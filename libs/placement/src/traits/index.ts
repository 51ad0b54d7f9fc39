export * from './trait.commands.js';
export * from './trait-command.handlers.js';
export * from './trait.queries.js';
export * from './provider-traits.query.js';

import { GetTraitHandler, ListTraitsHandler } from './trait.queries.js';
import { GetProviderTraitsHandler } from './provider-traits.query.js';

export const TRAIT_QUERY_HANDLERS = [ListTraitsHandler, GetTraitHandler, GetProviderTraitsHandler];
