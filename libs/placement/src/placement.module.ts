import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EVENT_STORE } from '#event-store/index.js';
import { Database } from './persistence/database.js';
import { READ_DB } from './shared/read-db.js';
import { NamedReads } from './persistence/named-reads.js';
import { DeciderStates, STORED_FORM } from './shared/decider-states.js';
import { CommandRunner } from './shared/command-runner.js';
import { AcknowledgedWrites } from './shared/acknowledged-writes.js';
import { ProviderLookups } from './read-models/provider-lookups.js';
import { PROVIDER_COMMAND_HANDLERS } from './providers/provider-command.handlers.js';
import { GetResourceProviderHandler } from './providers/queries/get-provider.query.js';
import { CheckProviderExistsHandler } from './providers/queries/provider-exists.query.js';
import { ListResourceProvidersHandler } from './providers/queries/list-providers.query.js';

const HANDLERS = [...PROVIDER_COMMAND_HANDLERS, GetResourceProviderHandler, CheckProviderExistsHandler, ListResourceProvidersHandler];

/** Command and query handlers over an opened database. */
@Module({})
export class PlacementModule {
  static forDatabase(database: Database, extraHandlers: any[] = []): DynamicModule {
    return {
      module: PlacementModule,
      global: true,
      imports: [CqrsModule.forRoot()],
      providers: [
        { provide: EVENT_STORE, useValue: database.eventStore },
        { provide: READ_DB, useValue: new NamedReads(database.pool) },
        { provide: STORED_FORM, useValue: database.storedForm },
        DeciderStates, CommandRunner, AcknowledgedWrites, ProviderLookups,
        ...HANDLERS, ...extraHandlers,
      ],
      exports: [EVENT_STORE, READ_DB, DeciderStates, CommandRunner, AcknowledgedWrites, ProviderLookups, CqrsModule],
    };
  }
}
