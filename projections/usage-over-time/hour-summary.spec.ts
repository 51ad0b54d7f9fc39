import { firstChange, HOUR_MS, hourOf, laterChange, LevelChange, summarize } from './hour-summary.js';

const H = Date.UTC(2026, 0, 1, 10);
const min = (m: number) => H + m * 60_000;

describe('hour summary', () => {
  it('puts an instant in its UTC hour', () => {
    expect(hourOf(min(59.99))).toBe(H);
    expect(hourOf(H + HOUR_MS)).toBe(H + HOUR_MS);
  });

  it('counts a change from its instant to the hour\'s end, and the start level up to it', () => {
    // Level 0 at 10:00, +4 at 10:15, -4 at 10:45: 4 units for half an hour.
    const s = laterChange(H, firstChange(H, { at: min(15), delta: 4 }), { at: min(45), delta: -4 });
    expect(s).toEqual({ net: 0, unitMs: BigInt(4 * HOUR_MS / 2), peakAboveStart: 4, lastChangeAt: min(45) });
  });

  it('keeps the start level as the peak while the level only falls, unless it falls on the first instant', () => {
    expect(firstChange(H, { at: min(30), delta: -2 }).peakAboveStart).toBe(0);
    expect(firstChange(H, { at: H, delta: -2 }).peakAboveStart).toBe(-2);
    expect(summarize(H, [{ at: H, delta: -2 }, { at: min(10), delta: 1 }]).peakAboveStart).toBe(-1);
  });

  it('takes simultaneous changes as one: a move inside one transaction has no transient peak', () => {
    expect(summarize(H, [{ at: min(5), delta: 4 }, { at: min(5), delta: -4 }]).peakAboveStart).toBe(0);
  });

  it('refuses to fold a change that is not the latest incrementally', () => {
    expect(() => laterChange(H, firstChange(H, { at: min(5), delta: 1 }), { at: min(5), delta: 1 })).toThrow();
  });

  it('gives the same summary in every arrival order, equal to folding in time order', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const changes: LevelChange[] = Array.from({ length: 1 + Math.floor(random() * 8) }, () => ({
        at: H + Math.floor(random() * 6) * 600_000, delta: Math.floor(random() * 11) - 5,
      }));
      const shuffled = [...changes].sort(() => random() - 0.5);
      const expected = summarize(H, changes);
      expect(summarize(H, shuffled)).toEqual(expected);
      // The projection's fast path: in time order with distinct instants, folding equals summarizing.
      const instants = [...new Map(changes.map((c) => [c.at, 0]))].map(([at]) => ({
        at, delta: changes.filter((c) => c.at === at).reduce((sum, c) => sum + c.delta, 0),
      })).sort((a, b) => a.at - b.at);
      const folded = instants.slice(1).reduce((s, c) => laterChange(H, s, c), firstChange(H, instants[0]));
      expect(folded).toEqual(expected);
    }
  });
});
