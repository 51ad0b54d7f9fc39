import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  ResourceClassCommand, decideRenameInto, decideResourceClass, resourceClassDecider, resourceClassStream,
} from '#domain/index.js';
import { Caller } from '../shared/caller.js';
import { CommandRunner } from '../shared/command-runner.js';
import { decideOnStream } from '../shared/decide-on-stream.js';
import {
  CreateCustomResourceClass, DeleteCustomResourceClass, EnsureCustomResourceClass, RenameCustomResourceClass,
} from './resource-class.commands.js';
import { ResourceClassUsage } from './resource-class-usage.js';

/** One class's stream, decided on. */
function onClass(commands: CommandRunner, caller: Caller, name: string, command: () => Promise<ResourceClassCommand>): Promise<boolean> {
  return decideOnStream(commands, caller, resourceClassStream(name), resourceClassDecider, async (state) => decideResourceClass(await command(), state));
}

@CommandHandler(CreateCustomResourceClass)
class CreateCustomResourceClassHandler implements ICommandHandler<CreateCustomResourceClass, boolean> {
  constructor(private readonly commands: CommandRunner) {}

  execute({ name, caller }: CreateCustomResourceClass) {
    return onClass(this.commands, caller, name, async () => ({ type: 'CreateResourceClass', name }));
  }
}

@CommandHandler(EnsureCustomResourceClass)
class EnsureCustomResourceClassHandler implements ICommandHandler<EnsureCustomResourceClass, boolean> {
  constructor(private readonly commands: CommandRunner) {}

  execute({ name, caller }: EnsureCustomResourceClass) {
    return onClass(this.commands, caller, name, async () => ({ type: 'EnsureResourceClass', name }));
  }
}

@CommandHandler(DeleteCustomResourceClass)
class DeleteCustomResourceClassHandler implements ICommandHandler<DeleteCustomResourceClass, boolean> {
  constructor(private readonly commands: CommandRunner, private readonly usage: ResourceClassUsage) {}

  execute({ name, caller }: DeleteCustomResourceClass) {
    return onClass(this.commands, caller, name, async () => ({ type: 'DeleteResourceClass', name, inUse: await this.usage.inUse(name) }));
  }
}

/** A rename leaves the old stream and starts the new one in one atomic append over both. */
@CommandHandler(RenameCustomResourceClass)
class RenameCustomResourceClassHandler implements ICommandHandler<RenameCustomResourceClass, void> {
  constructor(private readonly commands: CommandRunner, private readonly usage: ResourceClassUsage) {}

  async execute({ name, to, caller }: RenameCustomResourceClass): Promise<void> {
    await this.commands.run(caller, async (attempt) => {
      const source = await attempt.load(resourceClassStream(name), resourceClassDecider);
      const leaving = decideResourceClass({ type: 'RenameResourceClass', name, to, inUse: await this.usage.inUse(name) }, source);
      if (leaving.length === 0) return;
      const target = await attempt.load(resourceClassStream(to), resourceClassDecider);
      attempt.write(resourceClassStream(name), leaving);
      attempt.write(resourceClassStream(to), decideRenameInto(target, name, to));
    });
  }
}

export const RESOURCE_CLASS_COMMAND_HANDLERS = [
  CreateCustomResourceClassHandler, EnsureCustomResourceClassHandler, DeleteCustomResourceClassHandler, RenameCustomResourceClassHandler,
];
