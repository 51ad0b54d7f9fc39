import { percentile } from '../measure.js';
import { outside, spreadOf, within } from './figures.js';

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
