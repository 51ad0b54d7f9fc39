import { DomainError } from '../shared/domain-error.js';
import {
  ResourceClassCommand, ResourceClassEvent, decideRenameInto, resourceClassDecider,
} from './resource-class.decider.js';

const given = (...events: ResourceClassEvent[]) => ({
  when: (command: ResourceClassCommand) => {
    const state = events.reduce(resourceClassDecider.evolve, resourceClassDecider.initialState());
    const run = () => resourceClassDecider.decide(command, state);
    return {
      then: (expected: ResourceClassEvent[]) => expect(run()).toEqual(expected),
      thenThrows: (kind: DomainError['kind'], detail: string) => {
        expect(run).toThrow(DomainError);
        try { run(); } catch (e) { expect(e).toMatchObject({ kind, detail }); }
      },
    };
  },
});

const created = (name: string): ResourceClassEvent => ({ type: 'ResourceClassCreated', data: { name, v: 1 } });
const deleted = (name: string): ResourceClassEvent => ({ type: 'ResourceClassDeleted', data: { name, v: 1 } });
const renamed = (name: string, to: string): ResourceClassEvent => ({ type: 'ResourceClassRenamed', data: { name, to, v: 1 } });

describe('resource class decider', () => {
  describe('create', () => {
    it('creates a custom class that does not exist', () =>
      given().when({ type: 'CreateResourceClass', name: 'CUSTOM_A' }).then([created('CUSTOM_A')]));
    it('creates again after a delete', () =>
      given(created('CUSTOM_A'), deleted('CUSTOM_A')).when({ type: 'CreateResourceClass', name: 'CUSTOM_A' }).then([created('CUSTOM_A')]));
    it('refuses an existing class', () =>
      given(created('CUSTOM_A')).when({ type: 'CreateResourceClass', name: 'CUSTOM_A' })
        .thenThrows('conflict', 'Conflicting resource class already exists: CUSTOM_A'));
    it('refuses a standard class name', () =>
      given().when({ type: 'CreateResourceClass', name: 'VCPU' }).thenThrows('conflict', 'Conflicting resource class already exists: VCPU'));
  });

  describe('ensure (PUT from 1.7)', () => {
    it('creates an absent class', () => given().when({ type: 'EnsureResourceClass', name: 'CUSTOM_A' }).then([created('CUSTOM_A')]));
    it('decides nothing for an existing class', () =>
      given(created('CUSTOM_A')).when({ type: 'EnsureResourceClass', name: 'CUSTOM_A' }).then([]));
    it('decides nothing for a standard class', () => given().when({ type: 'EnsureResourceClass', name: 'VCPU' }).then([]));
  });

  describe('rename (PUT 1.2-1.6)', () => {
    it('moves the class off its old stream', () =>
      given(created('CUSTOM_A')).when({ type: 'RenameResourceClass', name: 'CUSTOM_A', to: 'CUSTOM_B', inUse: false })
        .then([renamed('CUSTOM_A', 'CUSTOM_B')]));
    it('changes nothing when the name is the same', () =>
      given(created('CUSTOM_A')).when({ type: 'RenameResourceClass', name: 'CUSTOM_A', to: 'CUSTOM_A', inUse: true }).then([]));
    it('refuses a standard class', () =>
      given().when({ type: 'RenameResourceClass', name: 'VCPU', to: 'CUSTOM_B', inUse: false })
        .thenThrows('bad_request', 'Cannot update standard resource class VCPU'));
    it('answers not found for a missing class', () =>
      given(created('CUSTOM_A'), renamed('CUSTOM_A', 'CUSTOM_B'))
        .when({ type: 'RenameResourceClass', name: 'CUSTOM_A', to: 'CUSTOM_C', inUse: false })
        .thenThrows('not_found', 'No such resource class CUSTOM_A.'));
    it('refuses a class in use', () =>
      given(created('CUSTOM_A')).when({ type: 'RenameResourceClass', name: 'CUSTOM_A', to: 'CUSTOM_B', inUse: true })
        .thenThrows('conflict', 'Cannot rename resource class CUSTOM_A. Class is in use in inventory.'));

    it('creates the class under its new name, remembering the old one', () => {
      expect(decideRenameInto({ status: 'absent' }, 'CUSTOM_A', 'CUSTOM_B'))
        .toEqual([{ type: 'ResourceClassCreated', data: { name: 'CUSTOM_B', renamed_from: 'CUSTOM_A', v: 1 } }]);
    });
    it('refuses a new name that exists', () => {
      expect(() => decideRenameInto({ status: 'active', name: 'CUSTOM_B' }, 'CUSTOM_A', 'CUSTOM_B'))
        .toThrow('Resource class already exists: CUSTOM_B');
      expect(() => decideRenameInto({ status: 'absent' }, 'CUSTOM_A', 'VCPU')).toThrow('Resource class already exists: VCPU');
    });
  });

  describe('delete', () => {
    it('deletes an unused custom class', () =>
      given(created('CUSTOM_A')).when({ type: 'DeleteResourceClass', name: 'CUSTOM_A', inUse: false }).then([deleted('CUSTOM_A')]));
    it('refuses a standard class', () =>
      given().when({ type: 'DeleteResourceClass', name: 'VCPU', inUse: false })
        .thenThrows('bad_request', 'Error in delete resource class: Cannot delete standard resource class VCPU.'));
    it('answers not found for a deleted class', () =>
      given(created('CUSTOM_A'), deleted('CUSTOM_A')).when({ type: 'DeleteResourceClass', name: 'CUSTOM_A', inUse: false })
        .thenThrows('not_found', 'No such resource class CUSTOM_A.'));
    it('refuses a class in use', () =>
      given(created('CUSTOM_A')).when({ type: 'DeleteResourceClass', name: 'CUSTOM_A', inUse: true })
        .thenThrows('conflict', 'Error in delete resource class: Cannot delete resource class CUSTOM_A. Class is in use in inventory.'));
  });
});
