import { comparable } from './comparison-rules.js';
import { canonical, diffTable, hasDrift, SAMPLES, TableComparison } from './row-diff.js';

const table = (columns: string[], rows: unknown[][]) => ({ table: 't', columns, rows });

describe('diffTable', () => {
  const columns = ['provider', 'rc', 'total', 'at'];
  const at = new Date('2026-01-01T00:00:00.123Z');

  it('finds nothing when both sides hold the same rows in any order and spelling', () => {
    const expected = table(columns, [['a', 'VCPU', 8, at], ['a', 'DISK_GB', 100, at]]);
    // As pg returns them: another order, another column order, int8 as text, the Date read back.
    const actual = table(['at', 'total', 'rc', 'provider'], [[new Date(at.getTime()), '100', 'DISK_GB', 'a'], [new Date(at.getTime()), 8, 'VCPU', 'a']]);
    const diff = diffTable(['provider', 'rc'], expected, actual);
    expect(hasDrift(diff)).toBe(false);
    expect(diff).toMatchObject({ expectedRows: 2, actualRows: 2 });
  });

  it('tells missing, extra and different rows apart, naming the differing columns', () => {
    const expected = table(columns, [['a', 'VCPU', 8, at], ['b', 'VCPU', 4, at]]);
    const actual = table(columns, [['a', 'VCPU', 999, at], ['c', 'VCPU', 4, at]]);
    expect(diffTable(['provider', 'rc'], expected, actual)).toEqual({
      table: 't', expectedRows: 2, actualRows: 2, missingCount: 1, extraCount: 1, differentCount: 1,
      missing: [{ provider: 'b', rc: 'VCPU', total: 4, at }],
      extra: [{ provider: 'c', rc: 'VCPU', total: 4, at }],
      different: [{ key: { provider: 'a', rc: 'VCPU' }, columns: [{ column: 'total', expected: 8, actual: 999 }] }],
    });
  });

  it('counts duplicates of a key on a table without a primary key', () => {
    const expected = table(['x'], [['1']]);
    const actual = table(['x'], [['1'], ['1']]);
    expect(diffTable(['x'], expected, actual).extra).toEqual([{ x: '1' }]);
  });

  it('sees a null where a value belongs, and a timestamp off by a millisecond', () => {
    const expected = table(['k', 'parent', 'at'], [['a', 'p', at]]);
    const actual = table(['k', 'parent', 'at'], [['a', null, new Date(at.getTime() + 1)]]);
    expect(diffTable(['k'], expected, actual).different[0].columns.map((c) => c.column)).toEqual(['parent', 'at']);
  });

  it('takes the live rows in chunks, as a cursor reads them, and keeps only samples of a big drift', () => {
    const expected = table(['k'], Array.from({ length: SAMPLES + 50 }, (_, i) => [i]));
    const comparison = new TableComparison(['k'], expected, ['k']);
    comparison.compare([[0], [1]]);
    comparison.compare([[2], [-1]]);
    const diff = comparison.finish();
    expect(diff).toMatchObject({ actualRows: 4, missingCount: SAMPLES + 47, extraCount: 1, differentCount: 0 });
    expect(diff.missing).toHaveLength(SAMPLES);
    expect(diff.missing[0]).toEqual({ k: 3 });
  });

  it('refuses to compare with a table lacking one of the expected columns', () => {
    expect(() => diffTable(['k'], table(['k', 'v'], []), table(['k'], []))).toThrow(/no column v/);
  });
});

describe('canonical', () => {
  it('spells jsonb objects whatever their key order, and numbers as pg prints them', () => {
    expect(canonical({ b: 1, a: { d: 2, c: [1, 2] } })).toBe(canonical({ a: { c: [1, 2], d: 2 }, b: 1 }));
    expect(canonical(1.5)).toBe(canonical('1.5'));
    expect(canonical(undefined)).toBeNull();
    expect(canonical(true)).toBe('true');
  });
});

describe('comparable', () => {
  it('compares custom resource class ids by rank, since the sequence skips values on rolled-back writes', () => {
    const columns = ['name', 'id', 'custom'];
    const live = comparable({ table: 'rm_resource_classes', columns, rows: [['VCPU', 0, false], ['CUSTOM_B', 10007, true], ['CUSTOM_A', 10002, true]] });
    const replayed = comparable({ table: 'rm_resource_classes', columns, rows: [['VCPU', 0, false], ['CUSTOM_A', 10000, true], ['CUSTOM_B', 10001, true]] });
    expect(hasDrift(diffTable(['name'], replayed, live))).toBe(false);
    const swapped = comparable({ table: 'rm_resource_classes', columns, rows: [['VCPU', 0, false], ['CUSTOM_A', 10001, true], ['CUSTOM_B', 10000, true]] });
    expect(diffTable(['name'], replayed, swapped).different.map((d) => d.key)).toEqual([{ name: 'CUSTOM_A' }, { name: 'CUSTOM_B' }]);
  });
});
