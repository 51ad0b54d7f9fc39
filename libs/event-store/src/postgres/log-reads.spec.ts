import { microsToTimestamp } from './log-reads.js';

describe('microsToTimestamp', () => {
  it('keeps every microsecond, before and after the epoch', () => {
    expect(microsToTimestamp(1_709_287_320_123_456n)).toBe('2024-03-01T10:02:00.123456+00:00');
    expect(microsToTimestamp(-1n)).toBe('1969-12-31T23:59:59.999999+00:00');
    expect(microsToTimestamp(0n)).toBe('1970-01-01T00:00:00.000000+00:00');
  });

  it('clamps to the years PostgreSQL reads written this way', () => {
    expect(microsToTimestamp(-(10n ** 18n))).toBe('0001-01-01T00:00:00.000000+00:00');
    expect(microsToTimestamp(10n ** 18n)).toBe('9999-12-31T23:59:59.999999+00:00');
  });
});
