import { DomainError } from '../shared/domain-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { ProviderNameTaken } from '../provider-name/provider-name.decider.js';
import { CreateProvider, UpdateProvider, decideCreate, decideDelete, decideUpdate } from './provider-lifecycle.decide.js';
import { ProviderEvent } from './provider.events.js';
import { ProviderState, evolveProvider, initialProviderState } from './provider.state.js';

const ROOT = '5b4e0e38-9c89-459d-98a8-fb87e19f30c9';
const CHILD = '0c1e6a7e-3f1b-4f0a-b7a2-6a9f6a0d1c11';
const OTHER = 'e2a4d0c5-7e8e-4f77-9c6e-2c3a3c2b1d00';

const created = (uuid: string, name: string, parent: string | null = null): ProviderEvent =>
  ({ type: 'ResourceProviderCreated', data: { uuid, name, parent_provider_uuid: parent, generation: 0, v: 1 } });
const given = (...events: ProviderEvent[]): ProviderState => events.reduce(evolveProvider, initialProviderState());
const create = (over: Partial<CreateProvider> = {}): CreateProvider => ({
  type: 'CreateProvider', uuid: ROOT, name: 'root', parentUuid: null, parent: { exists: false }, nameHolder: null, ...over,
});
const update = (over: Partial<UpdateProvider> = {}): UpdateProvider => ({
  type: 'UpdateProvider', uuid: CHILD, name: 'child', parentUuid: undefined, allowReparenting: false,
  parent: { exists: true, subtree: [CHILD] }, ...over,
});

function thrown(run: () => unknown): DomainError {
  try { run(); } catch (e) { return e as DomainError; }
  throw new Error('expected a DomainError');
}

describe('creating a provider', () => {
  it('starts at generation 0, with or without a parent', () => {
    expect(decideCreate(create(), given())).toEqual([created(ROOT, 'root')]);
    expect(decideCreate(create({ uuid: CHILD, name: 'c', parentUuid: ROOT, parent: { exists: true } }), given()))
      .toEqual([created(CHILD, 'c', ROOT)]);
  });

  it('may reuse the uuid of a deleted provider', () => {
    const state = given(created(ROOT, 'old'), { type: 'ResourceProviderDeleted', data: { generation: 0, v: 1 } });
    expect(decideCreate(create(), state)).toEqual([created(ROOT, 'root')]);
  });

  it('refuses an empty name, itself as parent, or a missing parent, as object action errors', () => {
    expect(thrown(() => decideCreate(create({ name: '' }), given()))).toMatchObject({
      kind: 'bad_request',
      detail: `Unable to create resource provider "", ${ROOT}: Object action create failed because: name is required`,
    });
    expect(thrown(() => decideCreate(create({ parentUuid: ROOT, parent: { exists: true } }), given())).detail).toBe(
      `Unable to create resource provider "root", ${ROOT}: Object action create failed because: parent provider UUID cannot be same as UUID. Please set parent provider UUID to None if there is no parent.`);
    expect(thrown(() => decideCreate(create({ parentUuid: OTHER }), given())).detail)
      .toMatch(/Object action create failed because: parent provider UUID does not exist\.$/);
  });

  it('checks the parent before duplicates, and the name before the uuid', () => {
    const existing = given(created(ROOT, 'root'));
    expect(thrown(() => decideCreate(create({ parentUuid: OTHER, nameHolder: ROOT }), existing)).kind).toBe('bad_request');
    expect(thrown(() => decideCreate(create({ nameHolder: ROOT }), existing))).toMatchObject({
      kind: 'conflict', code: ErrorCode.DUPLICATE_NAME, detail: 'Conflicting resource provider name: root already exists.',
    });
    expect(thrown(() => decideCreate(create({ nameHolder: OTHER }), given()))).toBeInstanceOf(ProviderNameTaken);
    expect(thrown(() => decideCreate(create({ name: 'renamed' }), existing))).toMatchObject({
      kind: 'conflict', code: ErrorCode.DUPLICATE_NAME, detail: `Conflicting resource provider uuid: ${ROOT} already exists.`,
    });
  });
});

describe('updating a provider', () => {
  const child = given(created(CHILD, 'child', ROOT));
  const orphan = given(created(CHILD, 'child'));

  it('renames without moving the generation', () => {
    expect(decideUpdate(update({ name: 'new' }), child)).toEqual([
      { type: 'ResourceProviderUpdated', data: { name: 'new', parent_provider_uuid: ROOT, generation: 0, v: 1 } },
    ]);
  });

  it('gives a parent to a root at any version', () => {
    expect(decideUpdate(update({ parentUuid: ROOT }), orphan)[0].data).toMatchObject({ parent_provider_uuid: ROOT });
  });

  it('re-parents and un-parents only from 1.37', () => {
    expect(thrown(() => decideUpdate(update({ parentUuid: OTHER }), child)).detail)
      .toBe(`Unable to save resource provider ${CHILD}: Object action update failed because: re-parenting a provider is not currently allowed.`);
    expect(thrown(() => decideUpdate(update({ parentUuid: null }), child)).detail)
      .toBe(`Unable to save resource provider ${CHILD}: Object action update failed because: un-parenting a provider is not currently allowed.`);
    expect(decideUpdate(update({ parentUuid: OTHER, allowReparenting: true }), child)[0].data).toMatchObject({ parent_provider_uuid: OTHER });
    expect(decideUpdate(update({ parentUuid: null, allowReparenting: true }), child)[0].data).toMatchObject({ parent_provider_uuid: null });
  });

  it('accepts the parent it already has before 1.37', () => {
    expect(decideUpdate(update({ name: 'new', parentUuid: ROOT }), child)[0].data).toMatchObject({ parent_provider_uuid: ROOT });
  });

  it('decides nothing when neither name nor parent changes, so updated_at stays as upstream', () => {
    expect(decideUpdate(update({ parentUuid: ROOT }), child)).toEqual([]);
    expect(decideUpdate(update(), child)).toEqual([]);
  });

  it('refuses a missing parent (calling it a create, as upstream) and loops', () => {
    expect(thrown(() => decideUpdate(update({ parentUuid: OTHER, parent: { exists: false } }), orphan)).detail)
      .toBe(`Unable to save resource provider ${CHILD}: Object action create failed because: parent provider UUID does not exist.`);
    expect(thrown(() => decideUpdate(update({ parentUuid: CHILD }), orphan)).detail)
      .toBe(`Unable to save resource provider ${CHILD}: Object action update failed because: creating loop in the provider tree is not allowed.`);
    const deep = update({ parentUuid: OTHER, allowReparenting: true, parent: { exists: true, subtree: [CHILD, OTHER] } });
    expect(thrown(() => decideUpdate(deep, child)).detail).toMatch(/creating loop in the provider tree is not allowed\.$/);
  });

  it('answers 404 for a provider that is not there', () => {
    expect(thrown(() => decideUpdate(update(), given())).kind).toBe('not_found');
  });
});

describe('deleting a provider', () => {
  const root = given(created(ROOT, 'root'));

  it('deletes a provider without children or allocations', () => {
    expect(decideDelete({ type: 'DeleteProvider', uuid: ROOT, hasChildren: false }, root))
      .toEqual([{ type: 'ResourceProviderDeleted', data: { generation: 0, v: 1 } }]);
  });

  it('refuses while it has children, then while it has allocations', () => {
    expect(thrown(() => decideDelete({ type: 'DeleteProvider', uuid: ROOT, hasChildren: true }, root))).toMatchObject({
      kind: 'conflict', code: ErrorCode.PROVIDER_CANNOT_DELETE_PARENT,
      detail: `Unable to delete parent resource provider ${ROOT}: It has child resource providers.`,
    });
    const used = { ...(root as Extract<ProviderState, { status: 'active' }>), usages: { VCPU: 2 } };
    expect(thrown(() => decideDelete({ type: 'DeleteProvider', uuid: ROOT, hasChildren: false }, used))).toMatchObject({
      kind: 'conflict', code: ErrorCode.PROVIDER_IN_USE,
      detail: `Unable to delete resource provider ${ROOT}: Resource provider has allocations.`,
    });
  });

  it('answers 404 for a provider already deleted', () => {
    const gone = given(created(ROOT, 'root'), { type: 'ResourceProviderDeleted', data: { generation: 0, v: 1 } });
    expect(thrown(() => decideDelete({ type: 'DeleteProvider', uuid: ROOT, hasChildren: false }, gone))).toMatchObject({
      kind: 'not_found', detail: `No resource provider with uuid ${ROOT} found for delete`,
    });
  });
});
