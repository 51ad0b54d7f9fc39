import type { StreamImported } from '../import/stream-imported.js';
import { Decider } from '../shared/decider.js';
import { badRequest, conflict, notFound } from '../shared/domain-error.js';
import { isStandardResourceClass } from '../standard/standard-names.js';

/** Custom resource classes: stream `resource-class-{name}`. Standard classes are built in, never streamed. */
export type ResourceClassEvent =
  | StreamImported
  /** occurred_at, set by an import only: the source row's time, ISO 8601. */
  | { type: 'ResourceClassCreated'; data: { name: string; renamed_from?: string; occurred_at?: string; v: 1 } }
  | { type: 'ResourceClassRenamed'; data: { name: string; to: string; v: 1 } }
  | { type: 'ResourceClassDeleted'; data: { name: string; v: 1 } };

export type ResourceClassState = { status: 'absent' } | { status: 'active'; name: string };

/** POST /resource_classes: an existing class is a conflict. */
type CreateResourceClass = { type: 'CreateResourceClass'; name: string };
/** PUT /resource_classes/{name} from 1.7: create-if-absent, an existing class decides nothing. */
type EnsureResourceClass = { type: 'EnsureResourceClass'; name: string };
/** 1.2-1.6: PUT with a new name renames the class; the new stream is written by decideRenameInto. */
type RenameResourceClass = { type: 'RenameResourceClass'; name: string; to: string; inUse: boolean };
type DeleteResourceClass = { type: 'DeleteResourceClass'; name: string; inUse: boolean };
export type ResourceClassCommand = CreateResourceClass | EnsureResourceClass | RenameResourceClass | DeleteResourceClass;

export const resourceClassStream = (name: string) => `resource-class-${name}`;

function evolveResourceClass(state: ResourceClassState, event: ResourceClassEvent): ResourceClassState {
  switch (event.type) {
    case 'StreamImported': return state;
    case 'ResourceClassCreated': return { status: 'active', name: event.data.name };
    case 'ResourceClassRenamed':
    case 'ResourceClassDeleted': return { status: 'absent' };
  }
}

function requireCustom(state: ResourceClassState, name: string): void {
  if (state.status !== 'active') throw notFound(`No such resource class ${name}.`);
}

const created = (name: string): ResourceClassEvent[] => [{ type: 'ResourceClassCreated', data: { name, v: 1 } }];

export function decideResourceClass(command: ResourceClassCommand, state: ResourceClassState): ResourceClassEvent[] {
  switch (command.type) {
    case 'CreateResourceClass':
      if (state.status === 'active' || isStandardResourceClass(command.name)) {
        throw conflict(`Conflicting resource class already exists: ${command.name}`);
      }
      return created(command.name);
    case 'EnsureResourceClass':
      if (state.status === 'active' || isStandardResourceClass(command.name)) return [];
      return created(command.name);
    case 'RenameResourceClass':
      if (isStandardResourceClass(command.name)) throw badRequest(`Cannot update standard resource class ${command.name}`);
      requireCustom(state, command.name);
      // Saving a class under its own name changes nothing upstream either.
      if (command.to === command.name) return [];
      // Provider streams name classes by string; renaming one in use would orphan their history.
      if (command.inUse) {
        throw conflict(`Cannot rename resource class ${command.name}. Class is in use in inventory.`);
      }
      return [{ type: 'ResourceClassRenamed', data: { name: command.name, to: command.to, v: 1 } }];
    case 'DeleteResourceClass':
      if (isStandardResourceClass(command.name)) {
        throw badRequest(`Error in delete resource class: Cannot delete standard resource class ${command.name}.`);
      }
      requireCustom(state, command.name);
      if (command.inUse) {
        throw conflict(`Error in delete resource class: Cannot delete resource class ${command.name}. Class is in use in inventory.`);
      }
      return [{ type: 'ResourceClassDeleted', data: { name: command.name, v: 1 } }];
  }
}

/** The other half of a rename: the class appears under its new name. */
export function decideRenameInto(target: ResourceClassState, from: string, to: string): ResourceClassEvent[] {
  if (target.status === 'active' || isStandardResourceClass(to)) throw conflict(`Resource class already exists: ${to}`);
  return [{ type: 'ResourceClassCreated', data: { name: to, renamed_from: from, v: 1 } }];
}

export const resourceClassDecider: Decider<ResourceClassCommand, ResourceClassEvent, ResourceClassState> = {
  initialState: () => ({ status: 'absent' }),
  evolve: evolveResourceClass,
  decide: decideResourceClass,
};
