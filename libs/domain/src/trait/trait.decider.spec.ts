import { DomainError } from '../shared/domain-error.js';
import { TraitCommand, TraitEvent, traitDecider } from './trait.decider.js';

const given = (...events: TraitEvent[]) => ({
  when: (command: TraitCommand) => {
    const state = events.reduce(traitDecider.evolve, traitDecider.initialState());
    const run = () => traitDecider.decide(command, state);
    return {
      then: (expected: TraitEvent[]) => expect(run()).toEqual(expected),
      thenThrows: (kind: DomainError['kind'], detail: string) => {
        expect(run).toThrow(DomainError);
        try { run(); } catch (e) { expect(e).toMatchObject({ kind, detail }); }
      },
    };
  },
});

const created = (name: string): TraitEvent => ({ type: 'TraitCreated', data: { name, v: 1 } });
const deleted = (name: string): TraitEvent => ({ type: 'TraitDeleted', data: { name, v: 1 } });

describe('trait decider', () => {
  it('creates an absent custom trait', () => given().when({ type: 'EnsureTrait', name: 'CUSTOM_T' }).then([created('CUSTOM_T')]));
  it('decides nothing for an existing trait', () => given(created('CUSTOM_T')).when({ type: 'EnsureTrait', name: 'CUSTOM_T' }).then([]));
  it('decides nothing for a standard trait', () => given().when({ type: 'EnsureTrait', name: 'HW_CPU_X86_SSE' }).then([]));
  it('creates a trait again after its deletion', () =>
    given(created('CUSTOM_T'), deleted('CUSTOM_T')).when({ type: 'EnsureTrait', name: 'CUSTOM_T' }).then([created('CUSTOM_T')]));

  it('deletes an unused custom trait', () =>
    given(created('CUSTOM_T')).when({ type: 'DeleteTrait', name: 'CUSTOM_T', inUse: false }).then([deleted('CUSTOM_T')]));
  it('refuses a standard trait', () =>
    given().when({ type: 'DeleteTrait', name: 'HW_CPU_X86_SSE', inUse: false })
      .thenThrows('bad_request', 'Cannot delete standard trait HW_CPU_X86_SSE.'));
  it('answers not found for a missing trait', () =>
    given(created('CUSTOM_T'), deleted('CUSTOM_T')).when({ type: 'DeleteTrait', name: 'CUSTOM_T', inUse: false })
      .thenThrows('not_found', 'No such trait(s): CUSTOM_T.'));
  it('refuses a trait a provider has', () =>
    given(created('CUSTOM_T')).when({ type: 'DeleteTrait', name: 'CUSTOM_T', inUse: true })
      .thenThrows('conflict', 'The trait CUSTOM_T is in use by a resource provider.'));
});
