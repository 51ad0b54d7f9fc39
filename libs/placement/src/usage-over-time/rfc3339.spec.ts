import { formatRfc3339, parseRfc3339 } from './rfc3339.js';

describe('RFC 3339 times', () => {
  it('reads UTC, offsets, fractions and the space a query string makes of a plus', () => {
    expect(parseRfc3339('2026-03-01T10:00:00Z')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(parseRfc3339('2026-03-01T12:00:00+02:00')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(parseRfc3339('2026-03-01T12:00:00 02:00')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(parseRfc3339('2026-03-01T05:30:00-04:30')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(parseRfc3339('2026-03-01t10:00:00.1239z')).toBe(Date.UTC(2026, 2, 1, 10) + 123);
  });

  it('refuses dates alone, missing offsets and fields out of range', () => {
    for (const text of ['2026-03-01', '2026-03-01T10:00:00', '2026-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-03-01T24:00:00Z', '2026-03-01T10:00:00+24:00', 'yesterday']) {
      expect(parseRfc3339(text)).toBeUndefined();
    }
    expect(parseRfc3339('2028-02-29T00:00:00Z')).toBe(Date.UTC(2028, 1, 29));
  });

  it('writes UTC without a zero fraction', () => {
    expect(formatRfc3339(Date.UTC(2026, 2, 1, 10))).toBe('2026-03-01T10:00:00Z');
    expect(formatRfc3339(Date.UTC(2026, 2, 1, 10) + 5)).toBe('2026-03-01T10:00:00.005Z');
  });
});
