import { asOfPoint, parseAsOf, timeToMicros } from './as-of.js';
import { positionToken } from './position-token.js';

describe('as_of', () => {
  it('reads a position token as a position', () => {
    expect(parseAsOf(positionToken({ commit: 900n, prepare: 41n }))).toEqual({ kind: 'position', position: { commit: 900n, prepare: 41n } });
  });

  it('reads RFC 3339 times, with Z or an offset, cutting fractions to microseconds', () => {
    expect(parseAsOf('2024-02-29T10:42:00Z')).toEqual({ kind: 'time', time: '2024-02-29T10:42:00+00:00' });
    expect(parseAsOf('2024-03-01t10:42:00.1234567-05:30')).toEqual({ kind: 'time', time: '2024-03-01T10:42:00.123456-05:30' });
    expect(parseAsOf('2024-03-01T10:42:00.5+02:00')).toEqual({ kind: 'time', time: '2024-03-01T10:42:00.5+02:00' });
  });

  it('takes the space a query string makes of an unencoded + for the +', () => {
    expect(parseAsOf('2024-03-01T10:42:00 02:00')).toEqual({ kind: 'time', time: '2024-03-01T10:42:00+02:00' });
  });

  it('refuses anything else', () => {
    for (const text of ['', 'yesterday', '1700000000', '2024-03-01', '2024-03-01T10:42:00', '2024-03-01 10:42:00Z',
      '2023-02-29T00:00:00Z', '2024-13-01T00:00:00Z', '2024-04-31T00:00:00Z', '2024-03-01T24:00:00Z', '2024-03-01T10:60:00Z',
      '2024-03-01T10:42:60Z', '2024-03-01T10:42:00+25:00', '2024-03-01T10:42:00.Z']) {
      expect(parseAsOf(text)).toBeUndefined();
    }
  });

  it('hands offsets beyond PostgreSQL\'s ±15:59 over as the same instant in UTC', () => {
    expect(parseAsOf('2026-01-01T00:00:00.25-16:00')).toEqual({ kind: 'time', time: '2026-01-01T16:00:00.25+00:00' });
    expect(parseAsOf('2026-01-01T10:00:00+23:59')).toEqual({ kind: 'time', time: '2025-12-31T10:01:00+00:00' });
    expect(parseAsOf('9999-12-31T23:59:59-23:59')).toEqual({ kind: 'time', time: '10000-01-01T23:58:59+00:00' });
    expect(parseAsOf('0001-01-01T00:00:00+23:59')).toEqual({ kind: 'time', time: '0001-01-01T00:00:00+00:00' });
    expect(parseAsOf('2026-01-01T00:00:00-15:59')).toEqual({ kind: 'time', time: '2026-01-01T00:00:00-15:59' });
  });

  it('becomes a point of the log: the position, or the time in microseconds since the epoch', () => {
    expect(asOfPoint({ kind: 'position', position: { commit: 900n, prepare: 41n } })).toEqual({ position: { commit: 900n, prepare: 41n } });
    expect(asOfPoint(parseAsOf('2024-03-01T10:42:00.123456Z')!)).toEqual({ time: 1_709_289_720_123_456n });
    expect(asOfPoint(parseAsOf('2024-03-01T12:42:00.5+02:00')!)).toEqual({ time: 1_709_289_720_500_000n });
    expect(asOfPoint(parseAsOf('2024-03-01T05:12:00-05:30')!)).toEqual({ time: 1_709_289_720_000_000n });
    expect(timeToMicros('0001-01-01T00:00:00+00:00')).toBe(-62_135_596_800_000_000n);
    expect(timeToMicros('10000-01-01T23:58:59+00:00')).toBeGreaterThan(timeToMicros('9999-12-31T23:59:59.999999+00:00'));
  });
});
