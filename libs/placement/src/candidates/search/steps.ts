import { setImmediate as nextTurn } from 'node:timers/promises';

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

/**
 * Runs steps in slices of about `sliceMs`, giving the event loop back between slices (setImmediate:
 * after pending I/O), so that no request holds the service for longer than a slice however long
 * its own work takes.
 */
export async function runPausing<T>(steps: Steps<T>, sliceMs: number): Promise<T> {
  let sliceEnd = performance.now() + sliceMs;
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() < sliceEnd) continue;
    await nextTurn();
    sliceEnd = performance.now() + sliceMs;
  }
}
