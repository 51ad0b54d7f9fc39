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
