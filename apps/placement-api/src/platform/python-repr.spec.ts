import { pyRepr } from './python-repr.js';

describe("python's repr of JSON values", () => {
  it('quotes strings as Python does', () => {
    expect(pyRepr('abc')).toBe("'abc'");
    expect(pyRepr("it's")).toBe('"it\'s"');
    expect(pyRepr('a\nb')).toBe("'a\\nb'");
  });

  it('spells constants, numbers and containers as Python does', () => {
    expect(pyRepr(null)).toBe('None');
    expect(pyRepr(true)).toBe('True');
    expect(pyRepr(1.5)).toBe('1.5');
    expect(pyRepr(3)).toBe('3');
    expect(pyRepr({ a: [1, 'x'] })).toBe("{'a': [1, 'x']}");
  });
});
