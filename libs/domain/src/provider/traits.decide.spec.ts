import { DomainError } from '../shared/domain-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { ProviderEvent } from './provider.events.js';
import { evolveProvider, initialProviderState } from './provider.state.js';
import { decideDeleteTraits, decideSetTraits } from './traits.decide.js';

const UUID = '5b4e0e38-9c89-459d-98a8-fb87e19f30c9';
const createdAt0: ProviderEvent = {
  type: 'ResourceProviderCreated', data: { uuid: UUID, name: 'rp', parent_provider_uuid: null, generation: 0, v: 1 },
};
const traitsSet = (traits: string[], generation: number): ProviderEvent => ({ type: 'TraitsSet', data: { traits, generation, v: 1 } });
const stateOf = (...events: ProviderEvent[]) => events.reduce(evolveProvider, initialProviderState());
const set = (traits: string[], generation: number, unknownTraits: string[] = []) =>
  ({ type: 'SetProviderTraits' as const, uuid: UUID, generation, traits, unknownTraits });

function thrown(run: () => unknown): DomainError {
  try { run(); } catch (e) { return e as DomainError; }
  throw new Error('expected a DomainError');
}

describe('provider traits', () => {
  it('sets traits, without duplicates, and moves the generation', () => {
    expect(decideSetTraits(set(['A', 'B', 'A'], 0), stateOf(createdAt0))).toEqual([traitsSet(['A', 'B'], 1)]);
  });

  it('decides nothing when the set is unchanged, whatever its order', () => {
    expect(decideSetTraits(set(['B', 'A'], 1), stateOf(createdAt0, traitsSet(['A', 'B'], 1)))).toEqual([]);
  });

  it('refuses a generation the client holds that is stale', () => {
    const error = thrown(() => decideSetTraits(set(['A'], 0), stateOf(createdAt0, traitsSet(['A', 'B'], 1))));
    expect(error).toMatchObject({
      kind: 'conflict', code: ErrorCode.CONCURRENT_UPDATE,
      detail: "Resource provider's generation already changed. Please update the generation and try again.",
    });
  });

  it('checks the generation before the traits, as upstream', () => {
    expect(thrown(() => decideSetTraits(set(['X'], 3, ['X']), stateOf(createdAt0))).kind).toBe('conflict');
  });

  it('names every unknown trait once', () => {
    const error = thrown(() => decideSetTraits(set(['NOPE_B', 'NOPE_A', 'A'], 0, ['NOPE_B', 'NOPE_A', 'NOPE_B']), stateOf(createdAt0)));
    expect(error).toMatchObject({ kind: 'bad_request', detail: 'No such trait NOPE_A, NOPE_B' });
  });

  it('answers not found for a missing or deleted provider', () => {
    const gone = stateOf(createdAt0, { type: 'ResourceProviderDeleted', data: { generation: 0, v: 1 } });
    expect(thrown(() => decideSetTraits(set([], 0), gone))).toMatchObject({ kind: 'not_found', detail: `No resource provider with uuid ${UUID} found` });
    expect(thrown(() => decideDeleteTraits({ type: 'DeleteProviderTraits', uuid: UUID }, initialProviderState())).kind).toBe('not_found');
  });

  it('deletes all traits, moving the generation only when there were some', () => {
    const command = { type: 'DeleteProviderTraits' as const, uuid: UUID };
    expect(decideDeleteTraits(command, stateOf(createdAt0, traitsSet(['A'], 1)))).toEqual([traitsSet([], 2)]);
    expect(decideDeleteTraits(command, stateOf(createdAt0))).toEqual([]);
  });
});
