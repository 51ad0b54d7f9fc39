import { percentile } from '../measure.js';
import type { StormResult } from './scheduler.js';
import { outside, pairedRatios, schedulerTime, spreadOf, Turn, within } from './figures.js';

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

describe('pairedRatios', () => {
  const turn = (slice: number, server: Turn['server'], instances: number, cpuMs: number): Turn => ({ slice, server, instances, cpuMs });

  it("divides each slice's CPU per instance of the other build by ours, whichever went first", () => {
    // Slice 0: 2.2 / 2.0 ms = 1.1; slice 1 (the other first): 3.0 / 3.0 = 1.0; slice 2: 1.8 / 2.0 = 0.9; slice 3: 2.4 / 2.0 = 1.2.
    const turns = [
      turn(0, 'ours', 100, 200), turn(0, 'against', 100, 220),
      turn(1, 'against', 50, 150), turn(1, 'ours', 50, 150),
      turn(2, 'ours', 100, 200), turn(2, 'against', 100, 180),
      turn(3, 'ours', 100, 200), turn(3, 'against', 100, 240),
    ];
    const paired = pairedRatios(turns)!;
    expect(paired.n).toBe(4);
    expect(paired.mean).toBeCloseTo(1.05, 10);
    // Deviations -0.05, 0.05, -0.15, 0.15 from 1.05: variance 0.05 / 3, over 4 ratios.
    expect(paired.standardError).toBeCloseTo(Math.sqrt(0.05 / 3 / 4), 10);
    expect(paired.median).toBeCloseTo(1.05, 10);
    expect([paired.min, paired.max]).toEqual([0.9, 1.2]);
    expect(paired.oursLower).toBe(2);
  });

  it('leaves out a slice one build did not finish or booted nothing in, and says null for none', () => {
    const one = pairedRatios([turn(0, 'ours', 10, 20), turn(0, 'against', 10, 30), turn(1, 'ours', 10, 20), turn(2, 'ours', 0, 0), turn(2, 'against', 10, 20)])!;
    expect(one.n).toBe(1);
    expect(one.standardError).toBeNaN();
    expect(pairedRatios([turn(0, 'ours', 10, 20)])).toBeNull();
  });
});
