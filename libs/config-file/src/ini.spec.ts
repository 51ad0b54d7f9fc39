import { IniSyntaxError, mergeIni, parseIni } from './ini.js';

const values = (text: string, section: string, option: string) =>
  parseIni(text, 'p.conf').get(section)?.get(option)?.map((v) => v.value);

describe('parseIni: the INI dialect of oslo.config', () => {
  it('reads sections, "=" and ":" assignments, trims, and keeps where each value was written', () => {
    const sections = parseIni('[DEFAULT]\ndebug = True\n\n[api]\nauth_strategy:noauth2\n', '/etc/placement/placement.conf');
    expect(sections.get('DEFAULT')!.get('debug')).toEqual([{ value: 'True', file: '/etc/placement/placement.conf', line: 2 }]);
    expect(sections.get('api')!.get('auth_strategy')![0]).toMatchObject({ value: 'noauth2', line: 5 });
  });

  it('skips # and ; comment lines but keeps a # inside a value (passwords have them)', () => {
    const text = '# head\n[keystone_authtoken]\n; note\n  # indented note\npassword = se#cret;x\n';
    expect(values(text, 'keystone_authtoken', 'password')).toEqual(['se#cret;x']);
  });

  it('joins continuation lines with newlines until a blank line', () => {
    const text = '[cors]\nallowed_origin = http://a,\n    http://b\n\n[placement]\nmax_allocation_candidates = 5\n';
    expect(values(text, 'cors', 'allowed_origin')).toEqual(['http://a,\nhttp://b']);
    expect(values(text, 'placement', 'max_allocation_candidates')).toEqual(['5']);
  });

  it('removes quotes around a whole value, lower-cases section names except DEFAULT, and reads dashes as underscores', () => {
    const sections = parseIni('[Placement_Database]\nconnection = "postgresql://u@h/db"\n[default]\nlog-dir = x\n', 'p.conf');
    expect(sections.get('placement_database')!.get('connection')![0].value).toBe('postgresql://u@h/db');
    expect(sections.get('default')!.get('log_dir')![0].value).toBe('x');
    expect(sections.has('DEFAULT')).toBe(false);
  });

  it('keeps every value of a repeated option, the last one counting', () => {
    expect(values('[api]\nauth_strategy = keystone\nauth_strategy = noauth2\n', 'api', 'auth_strategy')).toEqual(['keystone', 'noauth2']);
  });

  it('refuses what oslo.config refuses, naming file and line', () => {
    expect(() => parseIni('debug = true\n', 'a.conf')).toThrow(new IniSyntaxError('a.conf:1: option "debug" comes before any [section]'));
    expect(() => parseIni('[api\n', 'a.conf')).toThrow('a.conf:1: invalid section header "[api" (must end with ])');
    expect(() => parseIni('[api]\njust words\n', 'a.conf')).toThrow('a.conf:2: no "=" or ":" in "just words"');
    expect(() => parseIni('[api]\n = x\n', 'a.conf')).toThrow(/a\.conf:2/);
    expect(() => parseIni('[api]\n\n  orphan\n', 'a.conf')).toThrow('a.conf:3: unexpected continuation line "orphan"');
    expect(() => parseIni('[]\n', 'a.conf')).toThrow('a.conf:1: empty section name');
  });
});

describe('mergeIni', () => {
  it('lets a later file override an earlier one option by option', () => {
    const merged = mergeIni([
      parseIni('[api]\nauth_strategy = keystone\n[placement]\nmax_allocation_candidates = 5\n', 'a.conf'),
      parseIni('[api]\nauth_strategy = noauth2\n', 'b.conf'),
    ]);
    expect(merged.get('api')!.get('auth_strategy')!.at(-1)).toMatchObject({ value: 'noauth2', file: 'b.conf' });
    expect(merged.get('placement')!.get('max_allocation_candidates')!.at(-1)).toMatchObject({ value: '5', file: 'a.conf' });
  });
});
