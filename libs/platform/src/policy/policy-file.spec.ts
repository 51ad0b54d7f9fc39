import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkToString } from './check.js';
import { parseFlatYaml } from './flat-yaml.js';
import { parsePolicyDocument, PolicyFileError, readPolicyFile } from './policy-file.js';

const rendered = (rules: Map<string, unknown>) => Object.fromEntries([...rules].map(([name, check]) => [name, checkToString(check as never)]));

describe('policy files', () => {
  it('reads JSON, with the list-of-lists syntax', () => {
    const rules = parsePolicyDocument('{"a": "role:x or role:y", "b": [["role:x", "role:y"], ["role:z"]], "c": "", "d": null}');
    expect(rendered(rules)).toEqual({ a: '(role:x or role:y)', b: '((role:x and role:y) or role:z)', c: '@', d: '@' });
  });

  it('reads YAML as written by oslopolicy-sample-generator and by hand', () => {
    const rules = parsePolicyDocument([
      '# List resource providers.',
      '"placement:resource_providers:list": "role:reader"',
      'placement:traits:list: role:admin or',
      '  role:member   # a continued plain value',
      "'placement:traits:show': 'it''s:%(project_id)s'",
      '#"placement:traits:update": "!"',
      'admin_api:',
    ].join('\n'));
    expect(rendered(rules)).toEqual({
      'placement:resource_providers:list': 'role:reader',
      'placement:traits:list': '(role:admin or role:member)',
      'placement:traits:show': "it's:%(project_id)s",
      admin_api: '@',
    });
  });

  it('takes an empty file as no overrides', () => {
    expect(parsePolicyDocument('').size).toBe(0);
    expect(parsePolicyDocument('# nothing\n---\n').size).toBe(0);
    expect(parsePolicyDocument('{}').size).toBe(0);
  });

  it.each([
    ['["role:a"]', /must be a mapping/],
    ['{"a": 3}', /rule "a": 3 is not a check string/],
    ['a: true', /rule "a": true is not a check string/],
    ['{"a": "role:x and"}', /rule "a": could not parse rule "role:x and"/],
    ['a: role:x\nb:\n  - role:y', /line 3: unexpected indentation/],
    ['a: [role:x]', /line 1: .*YAML indicator/],
    ['a: "role:x', /line 1: unterminated quoted string/],
    ['a: role:x: y', /nested mappings/],
    ['{"a": "rule:b", "b": "rule:a"}', /rules a -> b -> a form a cycle/],
  ])('refuses %j', (text, message) => {
    expect(() => parsePolicyDocument(text)).toThrow(PolicyFileError);
    expect(() => parsePolicyDocument(text)).toThrow(message);
  });

  it('names the file, and says why it could not be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'policy-'));
    const path = join(dir, 'policy.yaml');
    writeFileSync(path, 'a: "role:x');
    expect(() => readPolicyFile(path)).toThrow(`${path}: not valid JSON, and not a YAML policy mapping: line 1: unterminated quoted string`);
    expect(() => readPolicyFile(join(dir, 'absent.yaml'))).toThrow(`cannot read ${join(dir, 'absent.yaml')}: ENOENT`);
    writeFileSync(path, '"placement:traits:list": "role:reader"\n');
    expect(rendered(readPolicyFile(path))).toEqual({ 'placement:traits:list': 'role:reader' });
  });
});

describe('the flat YAML reader', () => {
  it('folds quoted values over lines as YAML does (PyYAML wraps long ones)', () => {
    expect(parseFlatYaml('"a": "role:x and\\\n  \\ role:y or\n  role:z"\n\'b\': \'one\n  two\'')).toEqual({ a: 'role:x and role:y or role:z', b: 'one two' });
  });

  it('decodes double-quoted escapes', () => {
    expect(parseFlatYaml('a: "\\xFCn\\u00efc\\"\\\\"')).toEqual({ a: 'ünïc"\\' });
  });

  it('resolves plain scalars as YAML 1.1 does', () => {
    expect(parseFlatYaml('a: ~\nb: null\nc: yes\nd: off\ne: 12\nf: role:x # note\ng: role:a#b')).toEqual({
      a: null, b: null, c: true, d: false, e: 12, f: 'role:x', g: 'role:a#b',
    });
  });
});
