import { percentile } from '../measure.js';
import type { StormResult } from './scheduler.js';
import { outside, schedulerTime, spreadOf, within } from './figures.js';

describe('percentile (nearest rank)', () => {
  const sorted = Array.from({ length: 100 }, (_v, i) => i + 1);

  it('takes the value at rank ceil(p/100 * n)', () => {
    expect([percentile(sorted, 50), percentile(sorted, 95), percentile(sorted, 99), percentile(sorted, 100)]).toEqual([50, 95, 99, 100]);
    expect(percentile([3, 7, 9], 50)).toBe(7);
  });

  it('gives the slowest for a high percentile of few samples, never past the end', () => {
    expect(percentile([1, 2, 3], 99)).toBe(3);
    expect(percentile([5], 50)).toBe(5);
  });
});

describe('spreadOf', () => {
  const times = [40, 10, 30, 20].map((ms, i) => ({ at: (i + 1) * 100, ms }));

  it('sorts the times before taking their percentiles', () => {
    expect(spreadOf(times)).toEqual({ n: 4, p50: 20, p95: 40, p99: 40, max: 40 });
  });

  it('says NaN rather than inventing a figure for no samples', () => {
    expect(spreadOf([]).p50).toBeNaN();
  });

  it('splits the samples by when they ended: inside a window, or outside it', () => {
    expect(within(times, 150, 300).map((t) => t.ms)).toEqual([10, 30]);
    expect(outside(times, 150, 300).map((t) => t.ms)).toEqual([40, 20]);
  });
});

describe('schedulerTime', () => {
  it("splits a scheduler's time per instance, schedulers x seconds / instances, into its waits, its weighing and the rest", () => {
    // 2 schedulers, 1 s, 4 instances: 500 ms of a scheduler per instance; 5 GETs of 40 ms, 4 PUTs of 60 ms, 100 ms weighing each.
    const result = {
      acknowledged: [{}, {}, {}, {}], seconds: 1, schedulers: 2, weighMs: 100,
      gets: Array.from({ length: 5 }, () => ({ at: 0, ms: 40 })), puts: Array.from({ length: 4 }, () => ({ at: 0, ms: 60 })),
    } as unknown as StormResult;
    expect(schedulerTime(result)).toEqual({ perInstance: 500, gets: 50, puts: 60, weighing: 100, own: 290 });
  });
});
