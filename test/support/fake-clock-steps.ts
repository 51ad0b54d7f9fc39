import type { Steps } from '#placement/candidates/search/steps.js';

/**
 * Work of `count` steps of `ms` each on jest's fake clock, noting each step it takes: a job is
 * long when its steps say so, never sooner because a busy machine preempted it.
 */
export function* ticking(name: string, count: number, ms: number, log: string[]): Steps<string> {
  for (let i = 1; i <= count; i++) {
    jest.advanceTimersByTime(ms);
    log.push(`${name}${i}`);
    yield;
  }
  return `${name} done`;
}

/** Lets everything but the fake clock run, for `turns` turns of the event loop (setImmediate stays real). */
export async function settle(turns = 1): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
