import { badRequest, conflict, notFound } from '../shared/domain-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { ProviderNameTaken } from '../provider-name/provider-name.decider.js';
import { objectActionError, requireActive } from './provider-guards.js';
import { ProviderEvent } from './provider.events.js';
import { ProviderState } from './provider.state.js';

/** Facts about other streams, looked up by the handler, so that deciding stays pure. */
interface ParentFacts {
  readonly exists: boolean;
  /** uuids of the provider's own subtree (itself included), for loop detection. */
  readonly subtree?: readonly string[];
}

export type CreateProvider = {
  type: 'CreateProvider'; uuid: string; name: string; parentUuid: string | null; parent: ParentFacts;
  /**
   * Who holds the wanted name, read from the name's stream in the same attempt (whose revision
   * the append then expects): a creation reports a taken name before a taken uuid, as upstream.
   */
  nameHolder: string | null;
};
export type UpdateProvider = {
  type: 'UpdateProvider'; uuid: string; name: string;
  /** undefined: the body did not mention the parent. */
  parentUuid: string | null | undefined;
  allowReparenting: boolean; parent: ParentFacts;
};
// An update's new name is decided by the name's stream after this (provider-name/): after the
// parent checks, as upstream, and only when the name changes.
export type DeleteProvider = { type: 'DeleteProvider'; uuid: string; hasChildren: boolean };

/** Checks in upstream's order: the object's own checks, the parent, then the unique keys (name first). */
export function decideCreate(command: CreateProvider, state: ProviderState): ProviderEvent[] {
  const { uuid, name, parentUuid } = command;
  const fail = (reason: string) =>
    badRequest(`Unable to create resource provider "${name}", ${uuid}: ${objectActionError('create', reason)}`);
  if (name === '') throw fail('name is required');
  if (parentUuid !== null) {
    if (parentUuid === uuid) {
      throw fail('parent provider UUID cannot be same as UUID. Please set parent provider UUID to None if there is no parent.');
    }
    if (!command.parent.exists) throw fail('parent provider UUID does not exist.');
  }
  // Even when the holder is this very uuid: upstream's database reports the name first.
  if (command.nameHolder !== null) throw new ProviderNameTaken(name, command.nameHolder);
  if (state.status === 'active') {
    throw conflict(`Conflicting resource provider uuid: ${uuid} already exists.`, ErrorCode.DUPLICATE_NAME);
  }
  return [{ type: 'ResourceProviderCreated', data: { uuid, name, parent_provider_uuid: parentUuid, generation: 0, v: 1 } }];
}

export function decideUpdate(command: UpdateProvider, state: ProviderState): ProviderEvent[] {
  const provider = requireActive(state, command.uuid);
  const fail = (action: string, reason: string) =>
    badRequest(`Unable to save resource provider ${command.uuid}: ${objectActionError(action, reason)}`);
  let parent = provider.parentUuid;
  if (command.parentUuid !== undefined && command.parentUuid !== provider.parentUuid) {
    const wanted = command.parentUuid;
    if (wanted !== null) {
      // Upstream names the action 'create' here, though it is an update.
      if (!command.parent.exists) throw fail('create', 'parent provider UUID does not exist.');
      if (provider.parentUuid !== null && !command.allowReparenting) {
        throw fail('update', 're-parenting a provider is not currently allowed.');
      }
      if (wanted === provider.uuid || command.parent.subtree?.includes(wanted)) {
        throw fail('update', 'creating loop in the provider tree is not allowed.');
      }
    } else if (!command.allowReparenting) {
      throw fail('update', 'un-parenting a provider is not currently allowed.');
    }
    parent = wanted;
  }
  // Upstream issues no UPDATE when nothing changed, so its updated_at stays: no fact either.
  if (command.name === provider.name && parent === provider.parentUuid) return [];
  // A rename or re-parent does not move the generation, as upstream.
  return [{
    type: 'ResourceProviderUpdated',
    data: { name: command.name, parent_provider_uuid: parent, generation: provider.generation, v: 1 },
  }];
}

export function decideDelete(command: DeleteProvider, state: ProviderState): ProviderEvent[] {
  if (state.status !== 'active') throw notFound(`No resource provider with uuid ${command.uuid} found for delete`);
  const provider = state;
  if (command.hasChildren) {
    throw conflict(
      `Unable to delete parent resource provider ${command.uuid}: It has child resource providers.`,
      ErrorCode.PROVIDER_CANNOT_DELETE_PARENT,
    );
  }
  if (Object.values(provider.usages).some((used) => used > 0)) {
    throw conflict(
      `Unable to delete resource provider ${command.uuid}: Resource provider has allocations.`,
      ErrorCode.PROVIDER_IN_USE,
    );
  }
  return [{ type: 'ResourceProviderDeleted', data: { generation: provider.generation, v: 1 } }];
}
