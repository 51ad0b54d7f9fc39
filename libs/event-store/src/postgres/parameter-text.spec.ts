import { parameterText } from './parameter-text.js';

// pg's own conversion, the reference: a spec may read the driver's private files, the code may not.
const { prepareValue } = require('pg/lib/utils') as { prepareValue(value: unknown): string | Buffer | null };

describe('a parameter as pg would send it', () => {
  it.each([
    ['a string', 'it\'s "quoted" \\ back'],
    ['a number', 42.5],
    ['a bigint', 12345678901234567890n],
    ['a boolean', true],
    ['null', null],
    ['undefined', undefined],
    ['a date', new Date('2026-11-28T02:03:04.005Z')],
    ['an early date', new Date('0001-01-01T00:00:00.000Z')],
    ['JSON', { a: [1, 'two', null], 'b"c': { d: true } }],
    ['a text array', ['plain', 'with space', 'with "quote"', 'back\\slash', '', null]],
    ['a number array', [1, 2.5, -3]],
    ['a bigint array', ['9007199254740993', 1n]],
    ['a jsonb array', [JSON.stringify({ k: 'v"w' }), JSON.stringify([1, 2])]],
    ['a nested array', [['a', 'b'], ['c', null]]],
    ['a buffer', Buffer.from('hi')],
    ['an array of buffers', [Buffer.from('hi')]],
  ])('writes %s as pg does', (_name, value) => {
    expect(parameterText(value)).toEqual(prepareValue(value));
  });
});
