import { Version } from '../microversion.js';
import { PlacementError } from '../placement-error.js';
import { parseRequiredTraits, parseTraitsValue } from './required-traits.js';

const v = Version.parse;

function rejection(run: () => unknown): PlacementError {
  try { run(); } catch (e) { return e as PlacementError; }
  throw new Error('expected a 400');
}

describe('required traits', () => {
  it('makes each plain trait its own group and strips spaces', () => {
    expect(parseTraitsValue('A, B,A', false, false)).toEqual({ required: [['A'], ['B']], forbidden: [] });
  });

  it('reads forbidden traits, dropping every leading ! as upstream does', () => {
    expect(parseTraitsValue('A,!B,!!C', true, false)).toEqual({ required: [['A']], forbidden: ['B', 'C'] });
    expect(rejection(() => parseTraitsValue('A,!B', false, false)).detail)
      .toBe("Invalid query string parameters: Expected 'required' parameter value of the form: HW_CPU_X86_VMX,CUSTOM_MAGIC. Got: A,!B");
  });

  it('refuses empty trait names with the form the version allows', () => {
    expect(rejection(() => parseTraitsValue('', false, false)).detail)
      .toBe("Invalid query string parameters: Expected 'required' parameter value of the form: HW_CPU_X86_VMX,CUSTOM_MAGIC. Got an empty trait in: ");
    expect(rejection(() => parseTraitsValue('A,!', true, false)).detail)
      .toBe("Invalid query string parameters: Expected 'required' parameter value of the form: HW_CPU_X86_VMX,!CUSTOM_MAGIC. Got an empty trait in: A,!");
  });

  it('reads in: as one any-of group from 1.39', () => {
    expect(parseTraitsValue('in:A, B', true, true)).toEqual({ required: [['A', 'B']], forbidden: [] });
    expect(rejection(() => parseTraitsValue('in:A,B', true, false)).detail)
      .toBe("Invalid query string parameters: The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' only supported since microversion 1.39. Got: in:A,B");
    expect(rejection(() => parseTraitsValue('in:A,', true, true)).detail)
      .toBe("Invalid query string parameters: Expected 'required' parameter value of the form: in:HW_CPU_X86_VMX,CUSTOM_MAGIC. Got an empty trait in: in:A,");
    expect(rejection(() => parseTraitsValue('in:A,!B', true, true)).detail)
      .toBe("Invalid query string parameters: The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' does not support forbidden traits. Got: in:A,!B");
  });

  it('keeps only the last repeated required before 1.39 and ANDs them from 1.39', () => {
    expect(parseRequiredTraits(['A', 'B'], v('1.38'))).toEqual({ required: [['B']], forbidden: [] });
    expect(parseRequiredTraits(['in:A,B', 'C,!D', '!E'], v('1.39'))).toEqual({ required: [['A', 'B'], ['C']], forbidden: ['D', 'E'] });
    expect(rejection(() => parseRequiredTraits(['!A'], v('1.21'))).status).toBe(400);
    expect(parseRequiredTraits(['!A'], v('1.22'))).toEqual({ required: [], forbidden: ['A'] });
  });
});
