import { setImmediate as nextTurn } from 'node:timers/promises';
import type { LoopTurns } from './loop-turns.js';

/**
 * How many steps a search takes between two pauses (yields of its generator), where whoever
 * drives it may let other requests run: a wide tree has millions of steps, each well under a
 * microsecond once compiled, so a pause every thousand costs little and bounds a slice. The first
 * searches of a kind run before V8 has compiled their steps, several times slower each: at four
 * thousand steps a pause, such a slice held the event loop for over ten milliseconds.
 */
export const PAUSE_EVERY = 1024;

/** Work done in steps: a generator that pauses now and then (yields), and returns its result. */
export type Steps<T> = Generator<void, T>;

/** Runs steps to the end without letting anything else run: specs, and work that is bounded otherwise. */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** How a job paces itself: its slices, and whom it lets go first once it has run long (loop-turns.ts). */
export interface Pace {
  readonly sliceMs: number;
  readonly turns?: LoopTurns;
  /** While true, others wait for this job to end (a write for the view it reads): it waits for nobody. */
  readonly hurry?: () => boolean;
}

/** The time a request's work has taken in slices so far, over every run of it (its search, then its answer's writing). */
export interface Spent {
  ms: number;
}

/**
 * Runs steps in slices of about `sliceMs`, giving the event loop back between slices (setImmediate:
 * after pending I/O), so that no request holds the service for longer than a slice however long
 * its own work takes; once long, it also lets the requests being answered go first.
 */
export async function runPausing<T>(steps: Steps<T>, { sliceMs, turns, hurry }: Pace, spent: Spent = { ms: 0 }): Promise<T> {
  let long = false;
  let sliceStart = performance.now();
  try {
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      const now = performance.now();
      if (now < sliceStart + sliceMs) continue;
      spent.ms += now - sliceStart;
      await nextTurn();
      if (turns && spent.ms >= turns.longAfterMs) {
        if (!long) turns.demote();
        long = true;
        if (!hurry?.()) await turns.nextSlice();
      }
      sliceStart = performance.now();
    }
  } finally {
    if (long) turns?.restore();
  }
}
