import { Check } from './check.js';
import { Credentials, evaluate, RuleLookup, Target } from './evaluate.js';
import { parseRule } from './parse-rule.js';
import { literalKind, pyStr, substitute } from './python-values.js';

const creds: Credentials = {
  user_id: 'alice', project_id: 'p1', system_scope: null, domain_id: null, roles: ['Reader', 'member'],
  is_admin_project: true, nested: { tags: [{ name: 'gold' }, { name: 'silver' }] },
};
const target: Target = { project_id: 'p1', user_id: 'alice', role: 'member' };
const noRules: RuleLookup = () => undefined;

const allows = (rule: string, t: Target = target, c: Credentials = creds, rules: RuleLookup = noRules) => evaluate(parseRule(rule), t, c, rules);

describe('evaluating checks', () => {
  it('@ allows and ! denies', () => {
    expect(allows('@')).toBe(true);
    expect(allows('!')).toBe(false);
  });

  it('role: compares case-insensitively and may substitute from the target', () => {
    expect(allows('role:reader')).toBe(true);
    expect(allows('role:MEMBER')).toBe(true);
    expect(allows('role:admin')).toBe(false);
    expect(allows('role:%(role)s')).toBe(true);
    expect(allows('role:%(missing)s')).toBe(false);
    expect(allows('role:reader', target, { ...creds, roles: null })).toBe(false);
  });

  it('key:%(key)s compares the caller with the target', () => {
    expect(allows('project_id:%(project_id)s')).toBe(true);
    expect(allows('project_id:%(project_id)s', { project_id: 'p2' })).toBe(false);
    expect(allows('user_id:%(user_id)s', { project_id: 'p1' })).toBe(false);
  });

  it('matches None with None, as Python str() does (a system token against an absent project)', () => {
    expect(allows('project_id:%(project_id)s', { project_id: null }, { ...creds, project_id: null })).toBe(true);
    expect(allows('domain_id:None')).toBe(true);
    expect(allows('is_admin_project:True')).toBe(true);
  });

  it('generic checks are case-sensitive and look inside lists and dotted paths', () => {
    expect(allows('roles:member')).toBe(true);
    expect(allows('roles:reader')).toBe(false);
    expect(allows('nested.tags.name:silver')).toBe(true);
    expect(allows('nested.tags.name:bronze')).toBe(false);
    expect(allows('nested.absent:x')).toBe(false);
    expect(allows('user_id.deeper:x')).toBe(false);
  });

  it('a literal kind compares the literal with the substituted match', () => {
    expect(allows("'member':%(role)s")).toBe(true);
    expect(allows('"admin":%(role)s')).toBe(false);
    expect(allows('True:%(flag)s', { flag: true })).toBe(true);
    expect(allows('1:%(n)s', { n: 1 })).toBe(true);
  });

  it('and, or and not combine', () => {
    expect(allows('role:reader and project_id:%(project_id)s')).toBe(true);
    expect(allows('role:admin or role:member')).toBe(true);
    expect(allows('not role:admin and role:member')).toBe(true);
    expect(allows('not (role:admin or role:member)')).toBe(false);
  });

  it('rule: evaluates the named rule and fails closed when there is none', () => {
    const rules: Record<string, Check> = { reader: parseRule('role:reader'), admin: parseRule('role:admin') };
    const lookup: RuleLookup = (name) => rules[name];
    expect(allows('rule:reader', target, creds, lookup)).toBe(true);
    expect(allows('rule:admin', target, creds, lookup)).toBe(false);
    expect(allows('rule:nowhere', target, creds, lookup)).toBe(false);
    expect(allows('not rule:nowhere', target, creds, lookup)).toBe(true);
  });
});

describe('Python value semantics', () => {
  it('str() of JSON values', () => {
    expect([null, true, false, 3, 1.5, 2.0, 'x', ['a', 1]].map((v) => pyStr(v))).toEqual(['None', 'True', 'False', '3', '1.5', '2', 'x', "['a', 1]"]);
  });

  it('% substitution with a mapping', () => {
    expect(substitute('%(a)s-%(b)s', { a: 'x', b: null })).toBe('x-None');
    expect(substitute('100%%', {})).toBe('100%');
    expect(substitute('%(a)s', {})).toBeUndefined();
  });

  it('literal_eval of a check kind', () => {
    expect(['"x"', "'y'", 'True', 'None', '007', '-12', '1.50', 'project_id', 'a.b'].map(literalKind))
      .toEqual(['x', 'y', 'True', 'None', undefined, '-12', '1.5', undefined, undefined]);
  });
});
