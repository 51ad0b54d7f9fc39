import { MAX_VERSION, VERSIONS, Version, negotiate } from './microversion.js';

describe('microversion negotiation', () => {
  it('defaults to the minimum and understands latest', () => {
    expect(negotiate(undefined).toString()).toBe('1.0');
    expect(negotiate('placement latest').toString()).toBe(MAX_VERSION.toString());
  });

  it('reads the placement entry among several services', () => {
    expect(negotiate('compute 2.1, placement 1.27').toString()).toBe('1.27');
    expect(negotiate('compute 2.1').toString()).toBe('1.0');
  });

  it('answers 400 for a malformed version and 406 outside the range', () => {
    expect(negotiate('placement pony.horse')).toEqual({ status: 400, detail: 'Invalid microversion: invalid version string: pony.horse' });
    expect(negotiate('placement 1.2.3')).toMatchObject({ status: 400 });
    expect(negotiate('placement 0.5')).toEqual({ status: 406, detail: 'Invalid microversion: Unacceptable version header: 0.5' });
    expect(negotiate('placement 1.40')).toMatchObject({ status: 406 });
  });

  it('answers a header it has read before as it did, however many others came between', () => {
    const first = negotiate('placement 1.36');
    for (let i = 0; i < 200; i++) expect(negotiate(`placement ${i % 2 ? 'bad' : '1.'}${i}`)).toBeDefined();
    expect(negotiate('placement 1.36')).toEqual(first);
    expect(negotiate('placement 1.36').toString()).toBe('1.36');
    expect(negotiate('placement 1.40')).toMatchObject({ status: 406 });
  });

  it('lists every version from 1.0 to 1.39 once, in order', () => {
    expect(VERSIONS).toHaveLength(40);
    VERSIONS.forEach((v, i) => expect(v).toBe(`1.${i}`));
  });

  it('matches inclusive ranges numerically, not as strings', () => {
    const v = Version.parse('1.10');
    expect(v.matches('1.9')).toBe(true);
    expect(v.matches('1.11')).toBe(false);
    expect(v.matches('1.2', '1.10')).toBe(true);
    expect(v.matches(undefined, '1.9')).toBe(false);
  });
});
