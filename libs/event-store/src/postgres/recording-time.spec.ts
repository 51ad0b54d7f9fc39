import { fenceToken, recordingTime } from './recording-time.js';

describe('the time appends are recorded at, and their fence tokens', () => {
  it('never repeats nor goes back in one process, and follows the clock', () => {
    const before = BigInt(Date.now()) * 1000n;
    const times = Array.from({ length: 5000 }, () => recordingTime());
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]);
    expect(times[0]).toBeGreaterThanOrEqual(before);
    expect(times.at(-1)! - BigInt(Date.now()) * 1000n).toBeLessThan(5000n);
  });

  it('draws fence tokens that fit two int4 advisory keys: positive, below 2^62, and different', () => {
    // More than one draw of random bytes: the tokens stay different across them.
    const tokens = Array.from({ length: 1200 }, () => fenceToken());
    for (const token of tokens) {
      expect(token).toBeGreaterThanOrEqual(0n);
      expect(token).toBeLessThan(1n << 62n);
      expect(token >> 31n).toBeLessThan(1n << 31n);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
