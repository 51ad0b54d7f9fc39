import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ErrorCode, ProviderNameTaken, ProviderState, conflict } from '#domain/index.js';
import { ProviderLookups } from '../read-models/provider-lookups.js';
import {
  ChangeInventories, ChangeProviderTags, CreateResourceProvider, DeleteResourceProvider, UpdateResourceProvider,
} from './provider.commands.js';
import { CommandRunner } from '../shared/command-runner.js';
import { CREATING, providerCommand } from './provider-command.js';

@CommandHandler(CreateResourceProvider)
class CreateResourceProviderHandler implements ICommandHandler<CreateResourceProvider, ProviderState> {
  constructor(private readonly runner: CommandRunner, private readonly lookups: ProviderLookups) {}

  execute({ uuid, name, parentUuid, caller }: CreateResourceProvider) {
    return this.runner.run(caller, providerCommand(uuid, async (_state, holderOf) => {
      const parent = { exists: parentUuid !== null && (await this.lookups.exists(parentUuid)) };
      return { type: 'CreateProvider', uuid, name, parentUuid, parent, nameHolder: await holderOf(name) };
    }), CREATING);
  }
}

@CommandHandler(UpdateResourceProvider)
class UpdateResourceProviderHandler implements ICommandHandler<UpdateResourceProvider, ProviderState> {
  constructor(private readonly runner: CommandRunner, private readonly lookups: ProviderLookups) {}

  async execute(command: UpdateResourceProvider) {
    try {
      return await this.update(command);
    } catch (error) {
      // Upstream words a taken name differently on an update than on a creation.
      if (error instanceof ProviderNameTaken) {
        throw conflict(`Conflicting resource provider ${command.name} already exists.`, ErrorCode.DUPLICATE_NAME);
      }
      throw error;
    }
  }

  private update({ uuid, name, parentUuid, allowReparenting, caller }: UpdateResourceProvider) {
    return this.runner.run(caller, providerCommand(uuid, async () => {
      const reparenting = typeof parentUuid === 'string';
      const parent = {
        exists: reparenting && (await this.lookups.exists(parentUuid)),
        subtree: reparenting ? await this.lookups.subtree(uuid) : undefined,
      };
      return { type: 'UpdateProvider', uuid, name, parentUuid, allowReparenting, parent };
    }));
  }
}

@CommandHandler(DeleteResourceProvider)
class DeleteResourceProviderHandler implements ICommandHandler<DeleteResourceProvider, ProviderState> {
  constructor(private readonly runner: CommandRunner, private readonly lookups: ProviderLookups) {}

  execute({ uuid, caller }: DeleteResourceProvider) {
    return this.runner.run(caller, providerCommand(uuid, async () => ({ type: 'DeleteProvider', uuid, hasChildren: await this.lookups.hasChildren(uuid) })));
  }
}

@CommandHandler(ChangeInventories)
class ChangeInventoriesHandler implements ICommandHandler<ChangeInventories, ProviderState> {
  constructor(private readonly runner: CommandRunner, private readonly lookups: ProviderLookups) {}

  execute({ change, caller }: ChangeInventories) {
    return this.runner.run(caller, providerCommand(change.uuid, async () => {
      switch (change.type) {
        case 'SetInventories':
          return { ...change, unknownClasses: await this.lookups.unknownResourceClasses(Object.keys(change.inventories)) };
        case 'AddInventory':
        case 'UpdateInventory':
        case 'DeleteInventory':
          return { ...change, unknownClasses: await this.lookups.unknownResourceClasses([change.resourceClass]) };
        default:
          return change;
      }
    }));
  }
}

@CommandHandler(ChangeProviderTags)
class ChangeProviderTagsHandler implements ICommandHandler<ChangeProviderTags, ProviderState> {
  constructor(private readonly runner: CommandRunner, private readonly lookups: ProviderLookups) {}

  execute({ change, caller }: ChangeProviderTags) {
    return this.runner.run(caller, providerCommand(change.uuid, async () =>
      change.type === 'SetProviderTraits' ? { ...change, unknownTraits: await this.lookups.unknownTraits(change.traits) } : change));
  }
}

export const PROVIDER_COMMAND_HANDLERS = [
  CreateResourceProviderHandler, UpdateResourceProviderHandler, DeleteResourceProviderHandler,
  ChangeInventoriesHandler, ChangeProviderTagsHandler,
];
