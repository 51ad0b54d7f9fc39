import { eventsPerSecond, formatCount, formatDuration, formatProgress, progressFigures, Throttle } from './progress.js';

describe('progress math', () => {
  it('computes rate, share and time left from events done in a time', () => {
    expect(eventsPerSecond(150_000, 2)).toBe(75_000);
    expect(eventsPerSecond(10, 0)).toBe(0);
    expect(progressFigures({ done: 250_000, total: 1_000_000, seconds: 5, position: '250000' }))
      .toEqual({ percent: 25, rate: 50_000, etaSeconds: 15 });
  });

  it('has no estimate before the first event, and none left at the end', () => {
    expect(progressFigures({ done: 0, total: 10, seconds: 0, position: null })).toEqual({ percent: 0, rate: 0, etaSeconds: null });
    expect(progressFigures({ done: 10, total: 10, seconds: 1, position: '10' }).etaSeconds).toBe(0);
    expect(progressFigures({ done: 0, total: 0, seconds: 0, position: null }).percent).toBe(100);
  });

  it('never reports more than all of it when the log grew after the count', () => {
    expect(progressFigures({ done: 12, total: 10, seconds: 1, position: '12' })).toMatchObject({ percent: 100, etaSeconds: 0 });
  });

  it('prints counts, durations and a progress line', () => {
    expect(formatCount(1234567.4)).toBe('1,234,567');
    expect(formatDuration(12.34)).toBe('12.3 s');
    expect(formatDuration(125)).toBe('2 min 05 s');
    expect(formatProgress({ done: 250_000, total: 1_000_000, seconds: 5, position: '250017' }))
      .toBe('250,000 / 1,000,000 events (25.0%), 50,000 events/s, position 250017, about 15.0 s left');
  });

  it('lets a report through at most once per interval', () => {
    let now = 0;
    const throttle = new Throttle(1000, () => now);
    expect(throttle.due()).toBe(true);
    now = 999;
    expect(throttle.due()).toBe(false);
    now = 1000;
    expect(throttle.due()).toBe(true);
  });
});
