import { jsonbForm } from './jsonb-form.js';

describe('jsonbForm', () => {
  it('orders keys as jsonb does: shorter first, then bytewise, at every depth', () => {
    const form = jsonbForm({ inventories: { DISK_GB: 1, VCPU: 2, MEMORY_MB: 3 }, a: [{ zz: 1, b: undefined, y: 2 }] });
    expect(JSON.stringify(form)).toBe('{"a":[{"y":2,"zz":1}],"inventories":{"VCPU":2,"DISK_GB":1,"MEMORY_MB":3}}');
  });

  it('compares bytes, not UTF-16 units', () => {
    expect(Object.keys(jsonbForm({ 'é': 1, z: 2, '\u{1F600}': 3 }) as object)).toEqual(['z', 'é', '\u{1F600}']);
  });

  it('orders ASCII keys by length, then bytes: capitals and punctuation before small letters, whatever their insertion', () => {
    const keys = ['b', 'B', 'a_1', 'a1', 'A_1', 'aa', '_x', 'zzz', 'Zz'];
    expect(Object.keys(jsonbForm(Object.fromEntries(keys.map((key, i) => [key, i]))) as object))
      .toEqual(['B', 'b', 'Zz', '_x', 'a1', 'aa', 'A_1', 'a_1', 'zzz']);
  });

  it('orders a mix of ASCII and other keys by their bytes', () => {
    expect(Object.keys(jsonbForm({ zz: 1, 'é': 2, ab: 3, a: 4 }) as object)).toEqual(['a', 'ab', 'zz', 'é']);
  });
});

describe('jsonbForm, as the JSON text would give it', () => {
  const viaText = (value: unknown) => JSON.parse(JSON.stringify(value ?? null));

  it('keeps, drops and turns values as JSON.stringify does', () => {
    const odd = {
      when: new Date(Date.UTC(2026, 10, 29, 12, 0, 0)), gone: undefined, fn: () => 1, sym: Symbol('s'),
      list: [undefined, () => 1, Symbol('s'), NaN, Infinity, -0, 1.5, 'x', null, true],
      nested: { toJSON: () => ({ z: 1, a: [new Number(2), new String('s'), new Boolean(false)] }) },
      minus: -0, big: -Infinity, empty: {}, none: [],
    };
    const form = jsonbForm(odd);
    expect(JSON.stringify(form)).toBe(JSON.stringify(jsonbForm(viaText(odd))));
    expect(form).toEqual(viaText(odd));
    expect(Object.is((form as { minus: number }).minus, 0)).toBe(true);
  });

  it('answers null for what JSON leaves out at the top, and refuses a BigInt', () => {
    expect(jsonbForm(undefined)).toBeNull();
    expect(jsonbForm(() => 1)).toBeNull();
    expect(() => jsonbForm({ n: 1n })).toThrow(TypeError);
  });

  it('copies: the form shares no object with the value', () => {
    const value = { allocations: { 'rp-1': { VCPU: 1 } }, list: [{ a: 1 }] };
    const form = jsonbForm(value) as typeof value;
    value.allocations['rp-1'].VCPU = 9;
    value.list[0].a = 9;
    expect(form).toEqual({ allocations: { 'rp-1': { VCPU: 1 } }, list: [{ a: 1 }] });
  });
});
