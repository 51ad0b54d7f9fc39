import type { StreamImported } from '../import/stream-imported.js';
import { Decider } from '../shared/decider.js';
import { badRequest, conflict, notFound } from '../shared/domain-error.js';
import { isStandardTrait } from '../standard/standard-names.js';

/** Custom traits: stream `trait-{name}`. Standard traits are built in, never streamed. */
export type TraitEvent =
  | StreamImported
  /** occurred_at, set by an import only: the source row's time, ISO 8601. */
  | { type: 'TraitCreated'; data: { name: string; occurred_at?: string; v: 1 } }
  | { type: 'TraitDeleted'; data: { name: string; v: 1 } };

export type TraitState = { status: 'absent' } | { status: 'active'; name: string };

/** PUT /traits/{name} is create-if-absent: an existing trait decides nothing. */
type EnsureTrait = { type: 'EnsureTrait'; name: string };
type DeleteTrait = { type: 'DeleteTrait'; name: string; inUse: boolean };
export type TraitCommand = EnsureTrait | DeleteTrait;

export const traitStream = (name: string) => `trait-${name}`;

function evolveTrait(state: TraitState, event: TraitEvent): TraitState {
  if (event.type === 'StreamImported') return state;
  return event.type === 'TraitCreated' ? { status: 'active', name: event.data.name } : { status: 'absent' };
}

export function decideTrait(command: TraitCommand, state: TraitState): TraitEvent[] {
  switch (command.type) {
    case 'EnsureTrait':
      if (state.status === 'active' || isStandardTrait(command.name)) return [];
      return [{ type: 'TraitCreated', data: { name: command.name, v: 1 } }];
    case 'DeleteTrait':
      if (isStandardTrait(command.name)) throw badRequest(`Cannot delete standard trait ${command.name}.`);
      if (state.status !== 'active') throw notFound(`No such trait(s): ${command.name}.`);
      if (command.inUse) throw conflict(`The trait ${command.name} is in use by a resource provider.`);
      return [{ type: 'TraitDeleted', data: { name: command.name, v: 1 } }];
  }
}

export const traitDecider: Decider<TraitCommand, TraitEvent, TraitState> = {
  initialState: () => ({ status: 'absent' }),
  evolve: evolveTrait,
  decide: decideTrait,
};
