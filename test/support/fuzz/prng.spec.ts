import { Prng } from './prng.js';

describe('the fuzz generator', () => {
  it('replays the same sequence from the same seed and stays in range', () => {
    const a = new Prng(42);
    const b = new Prng(42);
    const drawn = Array.from({ length: 1000 }, () => a.int(3, 7));
    expect(drawn).toEqual(Array.from({ length: 1000 }, () => b.int(3, 7)));
    expect(Math.min(...drawn)).toBe(3);
    expect(Math.max(...drawn)).toBe(7);
    expect(new Prng(43).next()).not.toBe(new Prng(42).next());
  });
});
