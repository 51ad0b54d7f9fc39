import { bucketsFromChanges, overlap } from './step-function.js';

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);
const at = (hours: number) => T0 + hours * H;

describe('usage as a step function cut into buckets (the definition)', () => {
  it('measures the overlap of two half-open intervals', () => {
    expect(overlap(0, 10, 5, 20)).toBe(5);
    expect(overlap(0, 10, 10, 20)).toBe(0);
    expect(overlap(0, Infinity, 3, 4)).toBe(1);
  });

  it('splits a holding over every hour it spans: partial first and last hours, whole ones between', () => {
    // 2 units from 10:30 to 13:15.
    const buckets = bucketsFromChanges([{ at: at(10.5), delta: 2 }, { at: at(13.25), delta: -2 }], { start: at(10), end: at(14), width: 'hour' }, at(100));
    expect(buckets).toEqual([
      { start: at(10), peak: 2, unitMs: 2 * H / 2 },
      { start: at(11), peak: 2, unitMs: 2 * H },
      { start: at(12), peak: 2, unitMs: 2 * H },
      { start: at(13), peak: 2, unitMs: 2 * H / 4 },
    ]);
  });

  it('counts an open holding up to now and reports no bucket from now on', () => {
    const buckets = bucketsFromChanges([{ at: at(1), delta: 3 }], { start: at(0), end: at(24), width: 'hour' }, at(2.5));
    expect(buckets).toEqual([
      { start: at(0), peak: 0, unitMs: 0 },
      { start: at(1), peak: 3, unitMs: 3 * H },
      { start: at(2), peak: 3, unitMs: 1.5 * H },
    ]);
  });

  it('takes the peak of concurrent holdings and the integral of their sum, per day', () => {
    const changes = [
      { at: at(1), delta: 2 }, { at: at(3), delta: 4 }, { at: at(5), delta: -4 }, { at: at(30), delta: -2 },
    ];
    const days = bucketsFromChanges(changes, { start: at(0), end: at(48), width: 'day' }, at(1000));
    expect(days).toEqual([
      { start: at(0), peak: 6, unitMs: 2 * 23 * H + 4 * 2 * H },
      { start: at(24), peak: 2, unitMs: 2 * 6 * H },
    ]);
  });
});
