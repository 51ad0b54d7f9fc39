import {
  ActiveProvider, ProviderCommand, ProviderState, decideProvider, decideProviderName, evolveProvider, providerDecider,
  providerNameChanges, providerNameDecider, providerNameStream, providerStream,
} from '#domain/index.js';
import { Attempt } from '../shared/attempt.js';
import { RunOptions } from '../shared/command-runner.js';

/** Who holds a name, from its stream, loaded in the attempt that then expects its revision. */
export type NameHolders = (name: string) => Promise<string | null>;

/**
 * How the CommandRunner runs a command that makes a provider: its streams (the provider's, its
 * name's) are presumed new when this process has never seen them; the append checks that they are.
 */
export const CREATING: RunOptions = { presumedNew: () => true };

/**
 * A single-provider command as the CommandRunner runs it: load, gather facts, decide, then decide
 * the name streams the decision touches (a creation, rename or deletion), all in one append. A name
 * another provider holds fails as ProviderNameTaken; two writers taking one name at once collide
 * on the name stream's revision, and the loser decides again and meets the holder.
 */
export function providerCommand(
  uuid: string, build: (state: ProviderState, names: NameHolders) => Promise<ProviderCommand>,
): (attempt: Attempt) => Promise<ProviderState> {
  return async (attempt) => {
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
  };
}

export function asActive(state: ProviderState): ActiveProvider {
  if (state.status !== 'active') throw new Error('provider is not active after a successful write');
  return state;
}
