import { JsonScan } from './json-scan.js';

describe('JsonScan', () => {
  it('reads the entries and items asked for and passes over the rest, brackets and quotes inside strings included', () => {
    const text = JSON.stringify({
      skipped: { deep: [1, { s: '}]"{[\\' }], n: null }, name: 'a "quoted\\" \u00e9 name', figures: [1.5, -2e3, 0, true, false, null],
      'key with \\"escapes"': { inner: 7 }, last: 'x',
    }, null, 1);
    const scan = new JsonScan(text);
    const seen: unknown[] = [];
    let figures = 0;
    scan.entries((key) => {
      if (key === 'name') seen.push(['name', scan.string()]);
      else if (key === 'figures') scan.items(() => { if (figures++ < 2) seen.push(scan.number()); });
      else if (key === 'key with \\"escapes"') scan.entries((inner) => seen.push([inner, scan.number()]));
      else if (key === 'last') seen.push(['last', scan.string()]);
      else seen.push(key);
    });
    expect(seen).toEqual(['skipped', ['name', 'a "quoted\\" \u00e9 name'], 1.5, -2000, ['inner', 7], ['last', 'x']]);
    expect(scan.at).toBe(text.length);
  });

  it('gives where a skipped value lies, for JSON.parse to read it whole; empty objects and arrays are entries and items of none', () => {
    const text = '{"a": {} , "b":[ ], "c" : {"x": [1, {"y": "]"}]}}';
    const scan = new JsonScan(text);
    const spans: Record<string, unknown> = {};
    scan.entries((key) => {
      if (key === 'a') scan.entries(() => { throw new Error('an empty object has no entries'); });
      else if (key === 'b') scan.items(() => { throw new Error('an empty array has no items'); });
      else { const { from, to } = scan.skip(); spans[key] = JSON.parse(text.slice(from, to)); }
    });
    expect(spans).toEqual({ c: { x: [1, { y: ']' }] } });
  });

  it('throws on text that is not what it reads', () => {
    expect(() => new JsonScan('[1]').entries(() => undefined)).toThrow(/\{ expected at 0/);
    expect(() => new JsonScan('{"a": 1 "b": 2}').entries(() => undefined)).toThrow(/a comma or \} expected/);
    expect(() => new JsonScan('{"a": "open').entries(() => undefined)).toThrow(/the end of a string expected/);
    expect(() => new JsonScan('{"a": [1, 2').entries(() => undefined)).toThrow(/the end of an object or array expected/);
  });
});
