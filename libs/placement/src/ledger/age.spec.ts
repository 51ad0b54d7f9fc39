import { parseAge } from './age.js';

describe('ages', () => {
  it('read seconds', () => {
    expect(parseAge('3600')).toBe('3600 seconds');
    expect(parseAge('0.25')).toBe('0.25 seconds');
  });

  it('read ISO 8601 durations, calendar units included', () => {
    expect(parseAge('PT1H')).toBe('1 hours');
    expect(parseAge('P7D')).toBe('7 days');
    expect(parseAge('P2W')).toBe('2 weeks');
    expect(parseAge('P1Y2M3DT4H5M6.5S')).toBe('1 years 2 months 3 days 4 hours 5 minutes 6.5 seconds');
    expect(parseAge('PT0,5S')).toBe('0.5 seconds');
    expect(parseAge('PT30M')).toBe('30 minutes');
  });

  it('refuse what names no amount or is not a duration', () => {
    for (const text of ['', 'P', 'PT', 'P1DT', '1h', '-5', 'P-1D', 'PT1.5H', 'P1H', 'p1d', '1e3', 'P1D2H']) {
      expect(parseAge(text)).toBeUndefined();
    }
  });
});
