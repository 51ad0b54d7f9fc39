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
    scan.openObject();
    while (scan.nextEntry()) {
      if (scan.nameIs('name')) seen.push(['name', scan.string()]);
      else if (scan.nameIs('figures')) {
        scan.openArray();
        while (scan.nextItem()) {
          if (figures++ < 2) seen.push(scan.number());
          else scan.skip();
        }
      } else if (scan.nameIs('key with \\"escapes"')) {
        scan.openObject();
        while (scan.nextEntry()) seen.push([scan.name(), scan.number()]);
      } else if (scan.nameIs('last')) seen.push(['last', scan.string()]);
      else {
        seen.push(scan.name());
        scan.skip();
      }
    }
    expect(seen).toEqual(['skipped', ['name', 'a "quoted\\" \u00e9 name'], 1.5, -2000, ['inner', 7], ['last', 'x']]);
    expect(scan.at).toBe(bytes.length);
  });

  it('gives where a skipped value lies, for JSON.parse to read it whole; empty objects and arrays have no entries or items', () => {
    const bytes = Buffer.from('{"a": {} , "b":[ ], "c" : {"x": [1, {"y": "]"}]}}');
    const scan = new JsonScan(bytes);
    const spans: Record<string, unknown> = {};
    scan.openObject();
    while (scan.nextEntry()) {
      if (scan.nameIs('a')) {
        scan.openObject();
        expect(scan.nextEntry()).toBe(false);
      } else if (scan.nameIs('b')) {
        scan.openArray();
        expect(scan.nextItem()).toBe(false);
      } else {
        const name = scan.name();
        const { from, to } = scan.skip();
        spans[name] = JSON.parse(bytes.toString('utf8', from, to));
      }
    }
    expect(spans).toEqual({ c: { x: [1, { y: ']' }] } });
    expect(scan.at).toBe(bytes.length);
  });

  it('reads UTF-8 where it lies: names and strings of several bytes a character, and names written with escapes', () => {
    const bytes = Buffer.from('{"h\\u00e8te": "nœud é", "\\u006eame": 1, "né": {"ü": [2]}, "tail": 3}');
    const scan = new JsonScan(bytes);
    const seen: unknown[] = [];
    scan.openObject();
    while (scan.nextEntry()) {
      if (scan.nameIs('name')) seen.push(['name', scan.number()]);
      else if (scan.nameIs('tail')) seen.push(['tail', scan.number()]);
      else if (scan.name() === 'hète') seen.push(['hète', scan.string()]);
      else {
        const outer = scan.name();
        scan.openObject();
        while (scan.nextEntry()) {
          seen.push([outer, scan.name()]);
          scan.skip();
        }
      }
    }
    expect(seen).toEqual([['hète', 'nœud é'], ['name', 1], ['né', 'ü'], ['tail', 3]]);
    expect(scan.at).toBe(bytes.length);
  });

  it("tells a string value that repeats its entry's name, byte for byte, and reads whole numbers and others alike", () => {
    const bytes = Buffer.from(String.raw`{"a": {"r": "a", "n": 12345, "m": -7, "f": 2.5e1}, "b": {"r": "c"}, "\u0063": {"r": "c"}, "d": {"r": "\u0064"}}`);
    const scan = new JsonScan(bytes);
    const seen: unknown[] = [];
    scan.openObject();
    while (scan.nextEntry()) {
      const { nameStart, nameEnd } = scan;
      const key = scan.name();
      scan.openObject();
      while (scan.nextEntry()) {
        if (scan.nameIs('r')) seen.push([key, scan.stringIs(nameStart, nameEnd) ? 'itself' : scan.string()]);
        else seen.push(scan.number());
      }
    }
    expect(seen).toEqual([['a', 'itself'], 12345, -7, 25, ['b', 'c'], ['c', 'c'], ['d', 'd']]);
    expect(scan.at).toBe(bytes.length);
  });

  it('throws on text that is not what it reads, and on a value left neither read nor skipped', () => {
    expect(() => new JsonScan(Buffer.from('[1]')).openObject()).toThrow(/\{ expected at 0/);
    const entries = (text: string, read: (scan: JsonScan) => void) => () => {
      const scan = new JsonScan(Buffer.from(text));
      scan.openObject();
      while (scan.nextEntry()) read(scan);
    };
    expect(entries('{"a": 1 "b": 2}', (scan) => scan.skip())).toThrow(/a comma or \} expected/);
    expect(entries('{"a": "open', (scan) => scan.skip())).toThrow(/the end of a string expected/);
    expect(entries('{"a": [1, 2', (scan) => scan.skip())).toThrow(/the end of an object or array expected/);
    expect(entries('{"a": 1, "b": 2}', () => undefined)).toThrow(/a comma or \} expected at 6/);
  });
});
