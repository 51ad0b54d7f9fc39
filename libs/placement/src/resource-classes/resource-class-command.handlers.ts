import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  ResourceClassCommand, decideRenameInto, decideResourceClass, resourceClassDecider, resourceClassStream,
} from '#domain/index.js';
import { Caller } from '../shared/caller.js';
import { CommandRunner } from '../shared/command-runner.js';
import {
  CreateCustomResourceClass, DeleteCustomResourceClass, EnsureCustomResourceClass, RenameCustomResourceClass,
} from './resource-class.commands.js';
import { ResourceClassUsage } from './resource-class-usage.js';

/** Load one class stream, decide, append; true when something was appended. */
function runOnOne(commands: CommandRunner, name: string, caller: Caller, build: () => Promise<ResourceClassCommand>): Promise<boolean> {
  return commands.run(caller, async (attempt) => {
    const stream = resourceClassStream(name);
    const state = await attempt.load(stream, resourceClassDecider);
    const events = decideResourceClass(await build(), state);
    attempt.write(stream, events);
    return events.length > 0;
  });
}

@CommandHandler(CreateCustomResourceClass)
export class CreateCustomResourceClassHandler implements ICommandHandler<CreateCustomResourceClass, boolean> {
  constructor(private readonly commands: CommandRunner) {}

  execute({ name, caller }: CreateCustomResourceClass) {
    return runOnOne(this.commands, name, caller, async () => ({ type: 'CreateResourceClass', name }));
  }
}

@CommandHandler(EnsureCustomResourceClass)
export class EnsureCustomResourceClassHandler implements ICommandHandler<EnsureCustomResourceClass, boolean> {
  constructor(private readonly commands: CommandRunner) {}

  execute({ name, caller }: EnsureCustomResourceClass) {
    return runOnOne(this.commands, name, caller, async () => ({ type: 'EnsureResourceClass', name }));
  }
}

@CommandHandler(DeleteCustomResourceClass)
export class DeleteCustomResourceClassHandler implements ICommandHandler<DeleteCustomResourceClass, boolean> {
  constructor(private readonly commands: CommandRunner, private readonly usage: ResourceClassUsage) {}

  execute({ name, caller }: DeleteCustomResourceClass) {
    return runOnOne(this.commands, name, caller, async () => ({ type: 'DeleteResourceClass', name, inUse: await this.usage.inUse(name) }));
  }
}

/** A rename leaves the old stream and starts the new one in one atomic append over both. */
@CommandHandler(RenameCustomResourceClass)
export class RenameCustomResourceClassHandler implements ICommandHandler<RenameCustomResourceClass, void> {
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
