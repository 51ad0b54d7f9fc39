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
    expect(await runPausing(busy('a', 3, 2, log, short), 1)).toBe('a done');
    expect(log).toEqual(['a1', 'short', 'a2', 'a3']);
  });
});
