import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { TraitCommand, decideTrait, traitDecider, traitStream } from '#domain/index.js';
import { Caller } from '../shared/caller.js';
import { CommandRunner } from '../shared/command-runner.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { DeleteCustomTrait, EnsureCustomTrait } from './trait.commands.js';

/** Load the trait's stream, decide, append; true when something was appended. */
function runOnTrait(commands: CommandRunner, name: string, caller: Caller, build: () => Promise<TraitCommand>): Promise<boolean> {
  return commands.run(caller, async (attempt) => {
    const stream = traitStream(name);
    const state = await attempt.load(stream, traitDecider);
    const events = decideTrait(await build(), state);
    attempt.write(stream, events);
    return events.length > 0;
  });
}

@CommandHandler(EnsureCustomTrait)
export class EnsureCustomTraitHandler implements ICommandHandler<EnsureCustomTrait, boolean> {
  constructor(private readonly commands: CommandRunner) {}

  execute({ name, caller }: EnsureCustomTrait) {
    return runOnTrait(this.commands, name, caller, async () => ({ type: 'EnsureTrait', name }));
  }
}

@CommandHandler(DeleteCustomTrait)
export class DeleteCustomTraitHandler implements ICommandHandler<DeleteCustomTrait, boolean> {
  constructor(private readonly commands: CommandRunner, @Inject(READ_DB) private readonly db: ReadDb) {}

  execute({ name, caller }: DeleteCustomTrait) {
    return runOnTrait(this.commands, name, caller, async () => {
      const { rows } = await this.db.query('SELECT 1 FROM rm_provider_traits WHERE trait = $1 LIMIT 1', [name]);
      return { type: 'DeleteTrait', name, inUse: rows.length > 0 };
    });
  }
}

export const TRAIT_COMMAND_HANDLERS = [EnsureCustomTraitHandler, DeleteCustomTraitHandler];
