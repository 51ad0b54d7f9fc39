import { Version } from '../microversion.js';
import { PlacementError } from '../placement-error.js';
import { parseMemberOf, parseMemberOfValue } from './member-of.js';

const A = 'b4c2ec9e-5b4b-4b0c-9b5c-2f6bfb0b5f51';
const B = '0a3a4cf3-4e5c-4a43-9d87-7a54f7e54d2e';
const v = Version.parse;

function rejection(run: () => unknown): PlacementError {
  try { run(); } catch (e) { return e as PlacementError; }
  throw new Error('expected a 400');
}

describe('member_of', () => {
  it('reads the four forms of one value', () => {
    expect(parseMemberOfValue(A)).toEqual({ required: [A], forbidden: [] });
    expect(parseMemberOfValue(`in:${A},${B},${A}`)).toEqual({ required: [A, B], forbidden: [] });
    expect(parseMemberOfValue(`!${A}`)).toEqual({ required: [], forbidden: [A] });
    expect(parseMemberOfValue(`!in:${A},${B}`)).toEqual({ required: [], forbidden: [A, B] });
  });

  it('refuses a list without in:, and anything that is not a uuid', () => {
    expect(rejection(() => parseMemberOfValue(`${A},${B}`))).toMatchObject({
      status: 400,
      detail: `Multiple values for 'member_of' must be prefixed with the 'in:' or '!in:' keyword using the valid microversion. Got: ${A},${B}`,
    });
    expect(rejection(() => parseMemberOfValue(`in:${A},not-a-uuid`)).detail)
      .toBe("Invalid query string parameters: Expected 'member_of' parameter to contain valid UUID(s). Got: not-a-uuid");
    expect(rejection(() => parseMemberOfValue('in:')).detail).toMatch(/Got: $/);
  });

  it('ANDs repeated member_of from 1.24 and refuses them before', () => {
    expect(parseMemberOf([A, `in:${A},${B}`], v('1.24'))).toEqual({ required: [[A], [A, B]], forbidden: [] });
    expect(rejection(() => parseMemberOf([A, B], v('1.23'))).detail).toBe('Multiple member_of parameters are not supported');
    expect(rejection(() => parseMemberOf([A, B], v('1.23'), '1')).detail).toBe('Multiple member_of1 parameters are not supported');
    expect(parseMemberOf([`in:${A},${B}`], v('1.3'))).toEqual({ required: [[A, B]], forbidden: [] });
  });

  it('allows forbidden aggregates from 1.32 only', () => {
    expect(parseMemberOf([`!${A}`, `!in:${A},${B}`, B], v('1.32'))).toEqual({ required: [[B]], forbidden: [A, B] });
    expect(rejection(() => parseMemberOf([`!${A}`], v('1.31'))).detail)
      .toBe('Forbidden member_of parameters are not supported in the specified microversion');
  });
});
