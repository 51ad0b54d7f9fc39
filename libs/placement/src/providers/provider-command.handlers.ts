import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProviderState } from '../../../domain/src/index.js';
import { ProviderLookups } from '../read-models/provider-lookups.js';
import {
  ChangeInventories, ChangeProviderTags, CreateResourceProvider, DeleteResourceProvider, UpdateResourceProvider,
} from './provider.commands.js';
import { ProviderCommandRunner } from './provider-command-runner.js';

@CommandHandler(CreateResourceProvider)
export class CreateResourceProviderHandler implements ICommandHandler<CreateResourceProvider, ProviderState> {
  constructor(private readonly runner: ProviderCommandRunner, private readonly lookups: ProviderLookups) {}

  execute({ uuid, name, parentUuid, caller }: CreateResourceProvider) {
    return this.runner.run(uuid, caller, async () => {
      const parent = { exists: parentUuid !== null && (await this.lookups.exists(parentUuid)) };
      return { type: 'CreateProvider', uuid, name, parentUuid, parent, nameHolder: await this.lookups.nameTakenBy(name) };
    });
  }
}

@CommandHandler(UpdateResourceProvider)
export class UpdateResourceProviderHandler implements ICommandHandler<UpdateResourceProvider, ProviderState> {
  constructor(private readonly runner: ProviderCommandRunner, private readonly lookups: ProviderLookups) {}

  execute({ uuid, name, parentUuid, allowReparenting, caller }: UpdateResourceProvider) {
    return this.runner.run(uuid, caller, async (state) => {
      const nameHolder = state.status === 'active' && state.name !== name ? await this.lookups.nameTakenBy(name) : null;
      const reparenting = typeof parentUuid === 'string';
      const parent = {
        exists: reparenting && (await this.lookups.exists(parentUuid)),
        subtree: reparenting ? await this.lookups.subtree(uuid) : undefined,
      };
      return { type: 'UpdateProvider', uuid, name, parentUuid, allowReparenting, parent, nameHolder };
    });
  }
}

@CommandHandler(DeleteResourceProvider)
export class DeleteResourceProviderHandler implements ICommandHandler<DeleteResourceProvider, ProviderState> {
  constructor(private readonly runner: ProviderCommandRunner, private readonly lookups: ProviderLookups) {}

  execute({ uuid, caller }: DeleteResourceProvider) {
    return this.runner.run(uuid, caller, async () => ({ type: 'DeleteProvider', uuid, hasChildren: await this.lookups.hasChildren(uuid) }));
  }
}

@CommandHandler(ChangeInventories)
export class ChangeInventoriesHandler implements ICommandHandler<ChangeInventories, ProviderState> {
  constructor(private readonly runner: ProviderCommandRunner, private readonly lookups: ProviderLookups) {}

  execute({ change, caller }: ChangeInventories) {
    return this.runner.run(change.uuid, caller, async () => {
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
    });
  }
}

@CommandHandler(ChangeProviderTags)
export class ChangeProviderTagsHandler implements ICommandHandler<ChangeProviderTags, ProviderState> {
  constructor(private readonly runner: ProviderCommandRunner, private readonly lookups: ProviderLookups) {}

  execute({ change, caller }: ChangeProviderTags) {
    return this.runner.run(change.uuid, caller, async () =>
      change.type === 'SetProviderTraits' ? { ...change, unknownTraits: await this.lookups.unknownTraits(change.traits) } : change);
  }
}

export const PROVIDER_COMMAND_HANDLERS = [
  CreateResourceProviderHandler, UpdateResourceProviderHandler, DeleteResourceProviderHandler,
  ChangeInventoriesHandler, ChangeProviderTagsHandler,
];
