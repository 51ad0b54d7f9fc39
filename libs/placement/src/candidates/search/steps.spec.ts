import { LoopTurns } from './loop-turns.js';
import { settle, ticking } from '#test/support/fake-clock-steps.js';
import { runPausing, runToEnd, Steps } from './steps.js';

/** Work of `count` steps, each busy for about `ms`, that notes each step it takes. */
function* busy(name: string, count: number, ms: number, log: string[], during?: () => void): Steps<string> {
  for (let i = 1; i <= count; i++) {
    const end = performance.now() + ms;
    while (performance.now() < end);
    log.push(`${name}${i}`);
    if (i === 1) during?.();
    yield;
  }
  return `${name} done`;
}

describe('work in steps', () => {
  it('runs to the end at once when nothing else may run', () => {
    const log: string[] = [];
    let short = false;
    expect(runToEnd(busy('a', 3, 1, log, () => setImmediate(() => (short = true))))).toBe('a done');
    expect(short).toBe(false);
  });

  it('gives the event loop back once a slice is spent, so what arrived meanwhile runs before the rest', async () => {
    const log: string[] = [];
    const short = () => setImmediate(() => log.push('short'));
    expect(await runPausing(busy('a', 3, 2, log, short), { sliceMs: 1 })).toBe('a done');
    expect(log).toEqual(['a1', 'short', 'a2', 'a3']);
  });

  describe('once long', () => {
    // On a fake clock: each step takes its time by moving it, so that no preemption of a busy
    // machine can make a job long sooner than its steps say. Pauses (setImmediate) stay real.
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
    afterEach(() => jest.useRealTimers());
    /** The job's own request and `others` more, being answered. */
    const answering = (turns: LoopTurns, others: number) => {
      for (let i = 0; i <= others; i++) turns.begin();
    };

    it('waits waitMs after each slice while other requests are being answered, and goes on at once when none is', async () => {
      const turns = new LoopTurns(1, 50);
      answering(turns, 1);
      const log: string[] = [];
      const job = runPausing(ticking('a', 4, 2, log), { sliceMs: 1, turns });
      for (let i = 0; i < 5; i++) await settle();
      // Its first slice made it long: it lets the other request go first.
      expect(log).toEqual(['a1']);
      expect([turns.answeringNow, turns.longNow]).toEqual([1, 1]);
      await jest.advanceTimersByTimeAsync(49);
      expect(log).toEqual(['a1']);
      await jest.advanceTimersByTimeAsync(1);
      for (let i = 0; i < 5; i++) await settle();
      expect(log).toEqual(['a1', 'a2']);
      // Not woken when the other ends: its wait was due anyway (loop-turns.ts).
      turns.end();
      for (let i = 0; i < 5; i++) await settle();
      expect(log).toEqual(['a1', 'a2']);
      await jest.advanceTimersByTimeAsync(50);
      // Alone since: the rest at once.
      expect(await job).toBe('a done');
      expect(log).toEqual(['a1', 'a2', 'a3', 'a4']);
      // Its request counts again until its answer is written.
      expect([turns.answeringNow, turns.longNow]).toEqual([1, 0]);
      turns.end();
      expect(turns.answeringNow).toBe(0);
    });

    it('waits for nobody alone, or while others wait for it to end', async () => {
      const turns = new LoopTurns(1, 60_000);
      answering(turns, 0);
      expect(await runPausing(ticking('a', 5, 1, []), { sliceMs: 1, turns })).toBe('a done');
      answering(turns, 1);
      expect(await runPausing(ticking('b', 5, 1, []), { sliceMs: 1, turns, hurry: () => true })).toBe('b done');
    });

    it('counts the time of every run of one request', async () => {
      const turns = new LoopTurns(3, 50);
      answering(turns, 1);
      const spent = { ms: 0 };
      const log: string[] = [];
      await runPausing(ticking('a', 2, 1, log), { sliceMs: 1, turns }, spent);
      expect(turns.longNow).toBe(0);
      const second = runPausing(ticking('b', 3, 1, log), { sliceMs: 1, turns }, spent);
      for (let i = 0; i < 5; i++) await settle();
      expect(log).toEqual(['a1', 'a2', 'b1']);
      turns.end();
      await jest.advanceTimersByTimeAsync(50);
      await second;
      expect(log).toEqual(['a1', 'a2', 'b1', 'b2', 'b3']);
    });
  });
});
