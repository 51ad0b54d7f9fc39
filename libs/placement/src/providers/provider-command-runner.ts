import { Injectable } from '@nestjs/common';
import {
  ActiveProvider, ProviderCommand, ProviderState, decideProvider, decideProviderName, evolveProvider, providerDecider,
  providerNameChanges, providerNameDecider, providerNameStream, providerStream,
} from '#domain/index.js';
import { Caller } from '../shared/caller.js';
import { CommandRunner } from '../shared/command-runner.js';

/** Who holds a name, from its stream, loaded in the attempt that then expects its revision. */
export type NameHolders = (name: string) => Promise<string | null>;

/**
 * The one path every single-provider command takes: load, gather facts, decide, then decide the
 * name streams the decision touches (a creation, rename or deletion), all in one append. A name
 * another provider holds fails as ProviderNameTaken; two writers taking one name at once collide
 * on the name stream's revision, and the loser decides again and meets the holder.
 */
@Injectable()
export class ProviderCommandRunner {
  constructor(private readonly commands: CommandRunner) {}

  /**
   * `creating`: the command makes a provider, so its streams (the provider's, its name's) are
   * presumed new when this process has never seen them; the append checks that they are.
   */
  run(
    uuid: string, caller: Caller, build: (state: ProviderState, names: NameHolders) => Promise<ProviderCommand>, creating = false,
  ): Promise<ProviderState> {
    return this.commands.run(caller, async (attempt) => {
      const stream = providerStream(uuid);
      const state = await attempt.load(stream, providerDecider);
      const holderOf: NameHolders = async (name) => {
        const held = await attempt.load(providerNameStream(name), providerNameDecider);
        return held.status === 'held' ? held.provider : null;
      };
      const events = decideProvider(await build(state, holderOf), state);
      attempt.write(stream, events);
      const next = events.reduce(evolveProvider, state);
      for (const command of providerNameChanges(state, next)) {
        const names = providerNameStream(command.name);
        attempt.write(names, decideProviderName(command, await attempt.load(names, providerNameDecider)));
      }
      return next;
    }, creating ? { presumedNew: () => true } : {});
  }
}

export function asActive(state: ProviderState): ActiveProvider {
  if (state.status !== 'active') throw new Error('provider is not active after a successful write');
  return state;
}
