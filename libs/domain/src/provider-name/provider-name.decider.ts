import { createHash } from 'node:crypto';
import type { StreamImported } from '../import/stream-imported.js';
import { Decider } from '../shared/decider.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCode } from '../shared/error-codes.js';

/**
 * Provider names are unique, and the log is what makes them so: every name has a stream of its
 * own, and a creation, rename or deletion writes there in the same atomic append as the
 * provider's own event, expecting the revision it loaded. Two writers taking one name at once
 * cannot both commit, on any store. These types are stored (KurrentDB logs hold them since the
 * reservations were first written there): add, never change. `v` is absent from the first ones.
 */
export type ProviderNameEvent =
  | StreamImported
  | { type: 'ProviderNameReserved'; data: { name: string; uuid: string; v?: 1 } }
  | { type: 'ProviderNameReleased'; data: { name: string; uuid: string; v?: 1 } };

export type ProviderNameState = { status: 'free' } | { status: 'held'; provider: string };

type ReserveProviderName = { type: 'ReserveProviderName'; name: string; uuid: string };
type ReleaseProviderName = { type: 'ReleaseProviderName'; name: string; uuid: string };
export type ProviderNameCommand = ReserveProviderName | ReleaseProviderName;

/**
 * Hashed because names are free text up to 200 characters and KurrentDB compares the streams of
 * one append session without case, so a rename from "a" to "A" would otherwise name one stream
 * twice; and not under `provider-`, which is where readers find providers. Stored streams use
 * this very spelling, so it cannot change.
 */
export const providerNameStream = (name: string) =>
  `reserved-provider-name-${createHash('sha256').update(name).digest('hex')}`;

/**
 * The name belongs to another provider. Its detail is upstream's answer to a creation; a rename
 * words it differently, and its handler says so (the conformance suite checks both).
 */
export class ProviderNameTaken extends DomainError {
  constructor(readonly providerName: string, readonly holder: string) {
    super('conflict', `Conflicting resource provider name: ${providerName} already exists.`, ErrorCode.DUPLICATE_NAME);
  }
}

export const initialProviderNameState = (): ProviderNameState => ({ status: 'free' });

export function evolveProviderName(state: ProviderNameState, event: ProviderNameEvent): ProviderNameState {
  switch (event.type) {
    case 'StreamImported': return state;
    case 'ProviderNameReserved': return { status: 'held', provider: event.data.uuid };
    // Only the holder releases; a release by anyone else would be a bug, and must not free the name.
    case 'ProviderNameReleased':
      return state.status === 'held' && state.provider === event.data.uuid ? { status: 'free' } : state;
  }
}

export function decideProviderName(command: ProviderNameCommand, state: ProviderNameState): ProviderNameEvent[] {
  const data = { name: command.name, uuid: command.uuid, v: 1 as const };
  switch (command.type) {
    case 'ReserveProviderName':
      if (state.status === 'held') {
        if (state.provider === command.uuid) return [];
        throw new ProviderNameTaken(command.name, state.provider);
      }
      return [{ type: 'ProviderNameReserved', data }];
    case 'ReleaseProviderName':
      // Nothing to give back when the provider does not hold it (a log written before reservations).
      return state.status === 'held' && state.provider === command.uuid ? [{ type: 'ProviderNameReleased', data }] : [];
  }
}

export const providerNameDecider: Decider<ProviderNameCommand, ProviderNameEvent, ProviderNameState> = {
  initialState: initialProviderNameState,
  evolve: evolveProviderName,
  decide: decideProviderName,
};
