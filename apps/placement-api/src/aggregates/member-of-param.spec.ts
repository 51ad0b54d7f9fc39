import { Version } from '../platform/microversion.js';
import { PlacementError } from '../platform/placement-error.js';
import { parseMemberOf, parseMemberOfValue } from './member-of-param.js';

const A = '83a3d69d-8920-48e2-8914-cadfd8fa2f91';
const B = '99652f11-9f77-46b9-80b7-4b1989be9f8c';
const v = Version.parse;

function failure(run: () => unknown): PlacementError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PlacementError);
    return error as PlacementError;
  }
  throw new Error('expected a 400');
}

describe('member_of values', () => {
  it('reads a single uuid, in:, ! and !in: forms', () => {
    expect(parseMemberOfValue(A)).toEqual({ required: [A], forbidden: [] });
    expect(parseMemberOfValue(`in:${A},${B},${A}`)).toEqual({ required: [A, B], forbidden: [] });
    expect(parseMemberOfValue(`!${A}`)).toEqual({ required: [], forbidden: [A] });
    expect(parseMemberOfValue(`!in:${A},${B}`)).toEqual({ required: [], forbidden: [A, B] });
  });

  it('refuses a list without a prefix, and anything that is not a uuid', () => {
    expect(failure(() => parseMemberOfValue(`${A},${B}`)).detail)
      .toBe(`Multiple values for 'member_of' must be prefixed with the 'in:' or '!in:' keyword using the valid microversion. Got: ${A},${B}`);
    const bad = failure(() => parseMemberOfValue(`in:${A},!${B}`));
    expect(bad.status).toBe(400);
    expect(bad.detail).toBe(`Invalid query string parameters: Expected 'member_of' parameter to contain valid UUID(s). Got: !${B}`);
  });
});

describe('member_of parameters per microversion', () => {
  it('ANDs several member_of from 1.24 and refuses them before', () => {
    expect(parseMemberOf([A, `in:${A},${B}`], v('1.24'))).toEqual({ memberOf: [[A], [A, B]], forbiddenAggregates: [] });
    expect(failure(() => parseMemberOf([A, B], v('1.23'))).detail).toBe('Multiple member_of parameters are not supported');
  });

  it('collects forbidden aggregates from 1.32 and refuses them before', () => {
    expect(parseMemberOf([`!${A}`, `!in:${A},${B}`, B], v('1.32'))).toEqual({ memberOf: [[B]], forbiddenAggregates: [A, B] });
    expect(failure(() => parseMemberOf([`!${A}`], v('1.31'), '1')).detail)
      .toBe('Forbidden member_of1 parameters are not supported in the specified microversion');
  });
});
