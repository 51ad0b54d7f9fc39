import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { TraitCommand, decideTrait, traitDecider, traitStream } from '#domain/index.js';
import { Caller } from '../shared/caller.js';
import { ProviderLookups } from '../read-models/provider-lookups.js';
import { CommandRunner } from '../shared/command-runner.js';
import { decideOnStream } from '../shared/decide-on-stream.js';
import { DeleteCustomTrait, EnsureCustomTrait } from './trait.commands.js';

/** One trait's stream, decided on. */
function onTrait(commands: CommandRunner, caller: Caller, name: string, command: () => Promise<TraitCommand>): Promise<boolean> {
  return decideOnStream(commands, caller, traitStream(name), traitDecider, async (state) => decideTrait(await command(), state));
}

@CommandHandler(EnsureCustomTrait)
class EnsureCustomTraitHandler implements ICommandHandler<EnsureCustomTrait, boolean> {
  constructor(private readonly commands: CommandRunner) {}

  execute({ name, caller }: EnsureCustomTrait) {
    return onTrait(this.commands, caller, name, async () => ({ type: 'EnsureTrait', name }));
  }
}

@CommandHandler(DeleteCustomTrait)
class DeleteCustomTraitHandler implements ICommandHandler<DeleteCustomTrait, boolean> {
  constructor(private readonly commands: CommandRunner, private readonly lookups: ProviderLookups) {}

  execute({ name, caller }: DeleteCustomTrait) {
    return onTrait(this.commands, caller, name, async () => ({ type: 'DeleteTrait', name, inUse: await this.lookups.traitInUse(name) }));
  }
}

export const TRAIT_COMMAND_HANDLERS = [EnsureCustomTraitHandler, DeleteCustomTraitHandler];
