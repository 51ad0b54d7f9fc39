import { checkToString } from './check.js';
import { parseBaseCheck, parseListRule, parseRule, PolicyParseError } from './parse-rule.js';

/** Expected renderings are str(oslo_policy._parser.parse_rule(text)) from oslo.policy 4.0. */
describe('parsing check strings as oslo.policy does', () => {
  it.each([
    ['role:admin', 'role:admin'],
    ['@', '@'],
    ['!', '!'],
    ['', '@'],
    ['rule:a or rule:b', '(rule:a or rule:b)'],
    ['role:a and role:b or role:c', '((role:a and role:b) or role:c)'],
    ['role:a or role:b and role:c', '(role:a or (role:b and role:c))'],
    ['role:a or role:b and role:c and role:d', '(role:a or (role:b and role:c and role:d))'],
    ['role:a or role:b or role:c and role:d', '(role:a or role:b or (role:c and role:d))'],
    ['not role:a and role:b', '(not role:a and role:b)'],
    ['not (role:a or role:b)', 'not (role:a or role:b)'],
    ['((role:a))', 'role:a'],
    ['role:a and (role:b or role:c)', '(role:a and (role:b or role:c))'],
    ['(role:a and role:b) and role:c', '((role:a and role:b) and role:c)'],
    ['role:a or (role:b and role:c) and role:d', '(role:a or (role:b and role:c and role:d))'],
    ['role:a AND role:b Or NOT role:c', '((role:a and role:b) or not role:c)'],
    ['role:a and not role:b or role:c and role:d or role:e', '((role:a and not role:b) or (role:c and role:d) or role:e)'],
    ['not not role:a', 'not not role:a'],
    ['(role:a or role:b) and (role:c or role:d)', '((role:a or role:b) and (role:c or role:d))'],
    ['  role:a   and\trole:b ', '(role:a and role:b)'],
    ["'Member':%(role.name)s", "'Member':%(role.name)s"],
  ])('%j reads as %s', (text, rendered) => {
    expect(checkToString(parseRule(text))).toBe(rendered);
  });

  it('tells the three kinds of base check apart', () => {
    expect(parseBaseCheck('rule:admin_api')).toEqual({ kind: 'rule', match: 'admin_api' });
    expect(parseBaseCheck('role:%(role)s')).toEqual({ kind: 'role', match: '%(role)s' });
    expect(parseBaseCheck('system_scope:all')).toEqual({ kind: 'generic', key: 'system_scope', match: 'all' });
    // Only the first colon separates kind from match.
    expect(parseBaseCheck('project_id:a:b')).toEqual({ kind: 'generic', key: 'project_id', match: 'a:b' });
  });

  it('keeps the parenthesised substitution inside a word intact', () => {
    expect(parseRule('(project_id:%(project_id)s)')).toEqual({ kind: 'generic', key: 'project_id', match: '%(project_id)s' });
  });

  it.each([
    ['admin', /not a check/],
    ['role:a and', /could not parse/],
    ['(role:a', /could not parse/],
    ['role:a)', /could not parse/],
    ['and role:a', /could not parse/],
    ['role:a role:b', /could not parse/],
    ['"role:a"', /could not parse/],
    ['   ', /could not parse/],
    [':admin', /no check kind/],
    ['http:https://example.com', /remote http checks/],
    ['project_id:%s', /substitutions/],
    ['project_id:%(project_id)d', /substitutions/],
  ])('refuses %j (oslo would only log it and deny)', (text, message) => {
    expect(() => parseRule(text)).toThrow(PolicyParseError);
    expect(() => parseRule(text)).toThrow(message);
  });

  it('accepts %% as a literal percent sign', () => {
    expect(parseRule('tag:100%%')).toEqual({ kind: 'generic', key: 'tag', match: '100%%' });
  });
});

describe('the old list-of-lists syntax', () => {
  it('ors the outer list and ands each inner one', () => {
    expect(checkToString(parseListRule([['role:a', 'role:b'], ['role:c']]))).toBe('((role:a and role:b) or role:c)');
    expect(checkToString(parseListRule(['role:a', 'role:b']))).toBe('(role:a or role:b)');
    expect(checkToString(parseListRule([['role:a']]))).toBe('role:a');
  });

  it('allows everyone for an empty list and no one for a list of empty lists', () => {
    expect(parseListRule([])).toEqual({ kind: 'true' });
    expect(parseListRule([[], []])).toEqual({ kind: 'false' });
  });
});
