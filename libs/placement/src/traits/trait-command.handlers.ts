import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  TraitCommand, TraitEvent, TraitState, decideTrait, evolveTrait, traitDecider, traitStream,
} from '../../../domain/src/index.js';
import { Caller, metadataOf } from '../shared/caller.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { StreamWriter } from '../shared/stream-writer.js';
import { DeleteCustomTrait, EnsureCustomTrait } from './trait.commands.js';

/** Load the trait's stream, decide, append; true when something was appended. */
async function runOnTrait(writer: StreamWriter, name: string, caller: Caller, build: () => Promise<TraitCommand>): Promise<boolean> {
  const stream = traitStream(name);
  const { outcome } = await writer.execute(async () => {
    const { state, revision } = await writer.load<TraitState, TraitEvent>(stream, evolveTrait, traitDecider.initialState);
    const events = decideTrait(await build(), state);
    const metadata = metadataOf(caller);
    return { appends: [{ stream, expectedRevision: revision, events: events.map((e) => ({ ...e, metadata })) }], outcome: events.length > 0 };
  });
  return outcome;
}

@CommandHandler(EnsureCustomTrait)
export class EnsureCustomTraitHandler implements ICommandHandler<EnsureCustomTrait, boolean> {
  constructor(private readonly writer: StreamWriter) {}

  execute({ name, caller }: EnsureCustomTrait) {
    return runOnTrait(this.writer, name, caller, async () => ({ type: 'EnsureTrait', name }));
  }
}

@CommandHandler(DeleteCustomTrait)
export class DeleteCustomTraitHandler implements ICommandHandler<DeleteCustomTrait, boolean> {
  constructor(private readonly writer: StreamWriter, @Inject(READ_DB) private readonly db: ReadDb) {}

  execute({ name, caller }: DeleteCustomTrait) {
    return runOnTrait(this.writer, name, caller, async () => {
      const { rows } = await this.db.query('SELECT 1 FROM rm_provider_traits WHERE trait = $1 LIMIT 1', [name]);
      return { type: 'DeleteTrait', name, inUse: rows.length > 0 };
    });
  }
}

export const TRAIT_COMMAND_HANDLERS = [EnsureCustomTraitHandler, DeleteCustomTraitHandler];
