import { Access } from './access.js';
import { credentialsOf } from './credentials.js';
import { Enforcer } from './enforcer.js';
import type { Target } from '#platform/policy/evaluate.js';
import { parsePolicyDocument } from '#platform/policy/policy-file.js';

const RULE = 'placement:ledger:consumers:history';
const enforcer = new Enforcer({
  enforceNewDefaults: true, enforceScope: true, open: false,
  overrides: parsePolicyDocument(JSON.stringify({ [RULE]: 'rule:admin_or_project_reader_or_service_api' })),
});
const accessOf = (roles: string[], projectId: string | null = 'A') => {
  const creds = credentialsOf({ userId: 'u', projectId, roles, systemScope: false });
  return new Access(RULE, (target: Target) => enforcer.authorize(RULE, target, creds).allowed, projectId);
};
const rows = [{ id: 1, owner: { projectId: 'A', userId: 'x' } }, { id: 2, owner: { projectId: 'B', userId: 'y' } }, { id: 3, owner: null }];

describe('a route judged against its data', () => {
  it('shows an admin everything, without narrowing or looking at owners', () => {
    const access = accessOf(['admin']);
    expect(access.seesAll).toBe(true);
    expect(access.narrowTo()).toBeNull();
    expect(access.filter(rows, () => { throw new Error('no owner is looked at'); }).map((row) => row.id)).toEqual([1, 2, 3]);
  });

  it('shows a project\'s reader its own project\'s rows only, and none that no project owns', () => {
    const access = accessOf(['reader']);
    expect(access.seesAll).toBe(false);
    expect(access.mayReadOwnProject('u')).toBe(true);
    expect(access.narrowTo()).toBe('A');
    expect(access.filter(rows, (row) => row.owner).map((row) => row.id)).toEqual([1]);
    expect(() => access.require({ projectId: 'B', userId: 'y' })).toThrow('Policy does not allow placement:ledger:consumers:history to be performed.');
    expect(() => access.require(null)).toThrow();
    expect(() => access.require({ projectId: 'A', userId: null })).not.toThrow();
  });

  it('tells the guard when the caller could not see even its own project\'s data', () => {
    expect(accessOf(['member']).mayReadOwnProject('u')).toBe(false);
  });

  it('refuses to narrow for a caller without a project, and shows it no project\'s rows', () => {
    const access = accessOf(['reader'], null);
    expect(access.mayReadOwnProject('u')).toBe(false);
    expect(() => access.narrowTo()).toThrow('Policy does not allow');
    expect(access.filter(rows, (row) => row.owner)).toEqual([]);
  });

  it('remembers whether it was asked at all', () => {
    const access = accessOf(['reader']);
    expect(access.consulted).toBe(false);
    access.mayRead({ projectId: 'A', userId: null });
    expect(access.consulted).toBe(true);
  });
});
