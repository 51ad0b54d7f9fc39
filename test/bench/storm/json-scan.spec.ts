import { JsonScan } from './json-scan.js';

describe('JsonScan', () => {
  it('reads the entries and items asked for and passes over the rest, brackets and quotes inside strings included', () => {
    const text = JSON.stringify({
      skipped: { deep: [1, { s: '}]"{[\\' }], n: null }, name: 'a "quoted\\" \u00e9 name', figures: [1.5, -2e3, 0, true, false, null],
      'key with \\"escapes"': { inner: 7 }, last: 'x',
    }, null, 1);
    const bytes = Buffer.from(text);
    const scan = new JsonScan(bytes);
    const seen: unknown[] = [];
    let figures = 0;
    scan.entries((key) => {
      if (key.is('name')) seen.push(['name', scan.string()]);
      else if (key.is('figures')) scan.items(() => { if (figures++ < 2) seen.push(scan.number()); });
      else if (key.is('key with \\"escapes"')) scan.entries((inner) => seen.push([inner.text(), scan.number()]));
      else if (key.is('last')) seen.push(['last', scan.string()]);
      else seen.push(key.text());
    });
    expect(seen).toEqual(['skipped', ['name', 'a "quoted\\" \u00e9 name'], 1.5, -2000, ['inner', 7], ['last', 'x']]);
    expect(scan.at).toBe(bytes.length);
  });

  it('gives where a skipped value lies, for JSON.parse to read it whole; empty objects and arrays are entries and items of none', () => {
    const bytes = Buffer.from('{"a": {} , "b":[ ], "c" : {"x": [1, {"y": "]"}]}}');
    const scan = new JsonScan(bytes);
    const spans: Record<string, unknown> = {};
    scan.entries((key) => {
      if (key.is('a')) scan.entries(() => { throw new Error('an empty object has no entries'); });
      else if (key.is('b')) scan.items(() => { throw new Error('an empty array has no items'); });
      else { const { from, to } = scan.skip(); spans[key.text()] = JSON.parse(bytes.toString('utf8', from, to)); }
    });
    expect(spans).toEqual({ c: { x: [1, { y: ']' }] } });
  });

  it('reads UTF-8 where it lies: names and strings of several bytes a character, and names written with escapes', () => {
    const bytes = Buffer.from('{"h\\u00e8te": "nœud é", "\\u006eame": 1, "né": {"ü": [2]}, "tail": 3}');
    const scan = new JsonScan(bytes);
    const seen: unknown[] = [];
    scan.entries((key) => {
      if (key.is('name')) seen.push(['name', scan.number()]);
      else if (key.is('tail')) seen.push(['tail', scan.number()]);
      else if (key.text() === 'hète') seen.push(['hète', scan.string()]);
      else scan.entries((inner) => { seen.push([key.text(), inner.text()]); scan.skip(); });
    });
    expect(seen).toEqual([['hète', 'nœud é'], ['name', 1], ['né', 'ü'], ['tail', 3]]);
    expect(scan.at).toBe(bytes.length);
  });

  it("tells a string value that repeats its entry's name, byte for byte, and reads whole numbers and others alike", () => {
    const bytes = Buffer.from(String.raw`{"a": {"r": "a", "n": 12345, "m": -7, "f": 2.5e1}, "b": {"r": "c"}, "\u0063": {"r": "c"}, "d": {"r": "\u0064"}}`);
    const scan = new JsonScan(bytes);
    const seen: unknown[] = [];
    scan.entries((key) => scan.entries((field) => {
      if (field.is('r')) seen.push([key.text(), scan.stringIs(key) ? 'itself' : scan.string()]);
      else seen.push(scan.number());
    }));
    expect(seen).toEqual([['a', 'itself'], 12345, -7, 25, ['b', 'c'], ['c', 'c'], ['d', 'd']]);
    expect(scan.at).toBe(bytes.length);
  });

  it('throws on text that is not what it reads', () => {
    expect(() => new JsonScan(Buffer.from('[1]')).entries(() => undefined)).toThrow(/\{ expected at 0/);
    expect(() => new JsonScan(Buffer.from('{"a": 1 "b": 2}')).entries(() => undefined)).toThrow(/a comma or \} expected/);
    expect(() => new JsonScan(Buffer.from('{"a": "open')).entries(() => undefined)).toThrow(/the end of a string expected/);
    expect(() => new JsonScan(Buffer.from('{"a": [1, 2')).entries(() => undefined)).toThrow(/the end of an object or array expected/);
  });
});
