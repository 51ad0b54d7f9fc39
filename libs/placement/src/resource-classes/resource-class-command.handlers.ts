import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  ResourceClassCommand, ResourceClassEvent, ResourceClassState, decideRenameInto, decideResourceClass, evolveResourceClass,
  resourceClassDecider, resourceClassStream,
} from '../../../domain/src/index.js';
import { Caller, metadataOf } from '../shared/caller.js';
import { StreamWriter } from '../shared/stream-writer.js';
import {
  CreateCustomResourceClass, DeleteCustomResourceClass, EnsureCustomResourceClass, RenameCustomResourceClass,
} from './resource-class.commands.js';
import { ResourceClassUsage } from './resource-class-usage.js';

const load = (writer: StreamWriter, name: string) =>
  writer.load<ResourceClassState, ResourceClassEvent>(resourceClassStream(name), evolveResourceClass, resourceClassDecider.initialState);

/** Load one class stream, decide, append; true when something was appended. */
async function runOnOne(writer: StreamWriter, name: string, caller: Caller, build: () => Promise<ResourceClassCommand>): Promise<boolean> {
  const { outcome } = await writer.execute(async () => {
    const { state, revision } = await load(writer, name);
    const events = decideResourceClass(await build(), state);
    const metadata = metadataOf(caller);
    return {
      appends: [{ stream: resourceClassStream(name), expectedRevision: revision, events: events.map((e) => ({ ...e, metadata })) }],
      outcome: events.length > 0,
    };
  });
  return outcome;
}

@CommandHandler(CreateCustomResourceClass)
export class CreateCustomResourceClassHandler implements ICommandHandler<CreateCustomResourceClass, boolean> {
  constructor(private readonly writer: StreamWriter) {}

  execute({ name, caller }: CreateCustomResourceClass) {
    return runOnOne(this.writer, name, caller, async () => ({ type: 'CreateResourceClass', name }));
  }
}

@CommandHandler(EnsureCustomResourceClass)
export class EnsureCustomResourceClassHandler implements ICommandHandler<EnsureCustomResourceClass, boolean> {
  constructor(private readonly writer: StreamWriter) {}

  execute({ name, caller }: EnsureCustomResourceClass) {
    return runOnOne(this.writer, name, caller, async () => ({ type: 'EnsureResourceClass', name }));
  }
}

@CommandHandler(DeleteCustomResourceClass)
export class DeleteCustomResourceClassHandler implements ICommandHandler<DeleteCustomResourceClass, boolean> {
  constructor(private readonly writer: StreamWriter, private readonly usage: ResourceClassUsage) {}

  execute({ name, caller }: DeleteCustomResourceClass) {
    return runOnOne(this.writer, name, caller, async () => ({ type: 'DeleteResourceClass', name, inUse: await this.usage.inUse(name) }));
  }
}

/** A rename leaves the old stream and starts the new one in one atomic append over both. */
@CommandHandler(RenameCustomResourceClass)
export class RenameCustomResourceClassHandler implements ICommandHandler<RenameCustomResourceClass, void> {
  constructor(private readonly writer: StreamWriter, private readonly usage: ResourceClassUsage) {}

  async execute({ name, to, caller }: RenameCustomResourceClass): Promise<void> {
    await this.writer.execute(async () => {
      const source = await load(this.writer, name);
      const leaving = decideResourceClass({ type: 'RenameResourceClass', name, to, inUse: await this.usage.inUse(name) }, source.state);
      if (leaving.length === 0) return { appends: [], outcome: undefined };
      const target = await load(this.writer, to);
      const arriving = decideRenameInto(target.state, name, to);
      const metadata = metadataOf(caller);
      const withMetadata = (events: ResourceClassEvent[]) => events.map((e) => ({ ...e, metadata }));
      return {
        appends: [
          { stream: resourceClassStream(name), expectedRevision: source.revision, events: withMetadata(leaving) },
          { stream: resourceClassStream(to), expectedRevision: target.revision, events: withMetadata(arriving) },
        ],
        outcome: undefined,
      };
    });
  }
}

export const RESOURCE_CLASS_COMMAND_HANDLERS = [
  CreateCustomResourceClassHandler, EnsureCustomResourceClassHandler, DeleteCustomResourceClassHandler, RenameCustomResourceClassHandler,
];
