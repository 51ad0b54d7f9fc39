import { checkValue, splitList, substitute } from './values.js';

describe('option values as oslo.config types read them', () => {
  it('reads booleans in any case and normalises them', () => {
    for (const word of ['True', 'YES', 'on', '1']) expect(checkValue({ kind: 'bool' }, word)).toEqual({ ok: true, value: 'true' });
    for (const word of ['False', 'no', 'OFF', '0']) expect(checkValue({ kind: 'bool' }, word)).toEqual({ ok: true, value: 'false' });
    expect(checkValue({ kind: 'bool' }, 'y')).toMatchObject({ ok: false });
  });

  it('reads integers with a sign, against a minimum', () => {
    expect(checkValue({ kind: 'int', min: -1 }, '-1')).toEqual({ ok: true, value: '-1' });
    expect(checkValue({ kind: 'int' }, '+20')).toEqual({ ok: true, value: '20' });
    expect(checkValue({ kind: 'int', min: -1 }, '-2')).toEqual({ ok: false, reason: '-2 is below the minimum -1' });
    expect(checkValue({ kind: 'int' }, '1.5')).toMatchObject({ ok: false });
  });

  it('reads lists comma-separated, optionally bracketed, over continuation lines', () => {
    expect(splitList('[a, b ,c]')).toEqual(['a', 'b', 'c']);
    expect(splitList('http://a,\nhttp://b,')).toEqual(['http://a', 'http://b']);
    expect(checkValue({ kind: 'list' }, ' x , y ')).toEqual({ ok: true, value: 'x,y' });
  });

  it('substitutes $name, ${name} and ${section.name}; $$ is a dollar; a lone $ stays', () => {
    const known: Record<string, string> = { host: 'db1', 'placement.x': '7' };
    const lookup = (name: string) => known[name];
    expect(substitute('pg://$host/${host}/${placement.x}/$$/5$', lookup)).toEqual({ ok: true, value: 'pg://db1/db1/7/$/5$' });
    expect(substitute('a$missing', lookup)).toEqual({ ok: false, reason: 'refers to $missing, which is not set' });
  });
});
